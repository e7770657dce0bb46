import { platformName } from '../lib/names';

/** The first comment, under the post as the network shows it (a reply from the account where the comment is itself a post). */
export function FirstCommentPreview({ platform, text, isPost }: { platform: string; text: string; isPost: boolean }) {
  return (
    <section class="first-comment" aria-label={`First comment on ${platformName(platform)}`}>
      <h5>{isPost ? 'First comment (a reply from the account)' : 'First comment'}</h5>
      <p class="caption-text">{text}</p>
    </section>
  );
}
