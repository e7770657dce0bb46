import { NetworkCard, type NetworkPreviewProps } from '../components/network-card';
import { durationWords, PollPreview } from '../components/poll-preview';

/**
 * A Mastodon status: a content warning (spoiler_text) is shown first, the text folded behind
 * it as Mastodon folds it; a poll is drawn under the text with its length and whether several
 * choices are allowed.
 */
export function MastodonPreview(props: NetworkPreviewProps) {
  const poll = props.options?.poll as { options?: string[]; expires_in?: number; multiple?: boolean } | undefined;
  const warning = props.options?.spoiler_text;
  return (
    <NetworkCard
      {...props}
      drawn={['poll', 'spoiler_text']}
      wrapCaption={(caption) =>
        typeof warning === 'string' && warning ? (
          <details class="content-warning">
            <summary>Content warning: {warning}</summary>
            {caption}
          </details>
        ) : (
          caption
        )
      }
      below={poll?.options && <PollPreview choices={poll.options} open={durationWords((poll.expires_in ?? 86_400) / 60)} multiple={poll.multiple === true} />}
    />
  );
}
