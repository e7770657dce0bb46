import { COMMENT_TYPES, frameOf, platformDescription, type ContentType, type Platform } from '@socialpub/core/platforms';
import type { ComponentChildren } from 'preact';
import { platformName, typeName } from '../lib/names';
import { FirstCommentPreview } from './first-comment-preview';
import { CaptionPreview, MediaFrame, OptionsList, posterOf } from './preview';
import { ThreadPreview, type ThreadPart } from './thread-preview';

/** What every network's preview is drawn from: one network's share of a post. */
export interface NetworkPreviewProps {
  platform: Platform;
  /** The account's label when it is not the default one ("X (brand)"). */
  label?: string | null | undefined;
  types: readonly string[];
  caption: string;
  media: readonly string[];
  kinds?: Record<string, 'image' | 'video'> | undefined;
  options?: Record<string, unknown> | null | undefined;
  /** The replies this network publishes after the post (empty: none). */
  thread?: readonly ThreadPart[] | undefined;
  /** The first comment this network posts under the post, or null. */
  firstComment?: string | null | undefined;
}

/**
 * The frame every network's preview shares (each network's own component, in
 * `src/platforms/`, adds what only it shows): the caption where the network shows one (not on
 * a story), each content type's media at the ratio the network frames it (core's `frames`),
 * in carousel order, the thread's replies with their media, the first comment under the
 * post, and the options not already drawn (`drawn`), in words.
 */
export function NetworkCard(props: NetworkPreviewProps & { above?: ComponentChildren; below?: ComponentChildren; drawn?: readonly string[]; wrapCaption?: (caption: ComponentChildren) => ComponentChildren }) {
  const { platform, types, caption, media, kinds, options, thread = [], firstComment = null } = props;
  const description = platformDescription(platform);
  const name = props.label && props.label !== 'default' ? `${platformName(platform)} (${props.label})` : platformName(platform);
  const shown = types.length ? types : [description?.info.defaultType ?? 'post'];
  const withCaption = shown.filter((t) => frameOf(description, t).caption);
  const silent = shown.filter((t) => !frameOf(description, t).caption);
  const poster = posterOf(options);
  const rest = options ? Object.fromEntries(Object.entries(options).filter(([k]) => !(props.drawn ?? []).includes(k))) : {};
  const captionBlock = <CaptionPreview text={caption} platform={platform} />;
  const commentTypes = shown.filter((t) => COMMENT_TYPES.includes(t as ContentType));
  return (
    <section class={`preview preview-${platform}`} aria-label={`${name} preview`}>
      <h4>
        {name} <span class="muted">{shown.map(typeName).join(', ')}</span>
      </h4>
      {props.above}
      {withCaption.length > 0 && (props.wrapCaption ? props.wrapCaption(captionBlock) : captionBlock)}
      {silent.map((t) => (
        <p class="muted note" key={t}>
          No caption on the {typeName(t)}: {platformName(platform)} shows a {typeName(t)} without text, so the caption is not published there.
        </p>
      ))}
      {media.length > 0 &&
        shown.map((t) => (
          <div class="media-row" key={t} role="group" aria-label={`${name} ${typeName(t)} media`}>
            {media.map((m, i) => (
              <MediaFrame key={m} url={m} ratio={frameOf(description, t).ratio} what={typeName(t)} index={i} count={media.length} poster={poster} kinds={kinds} />
            ))}
          </div>
        ))}
      {props.below}
      {description?.followUps.thread && thread.length > 0 && <ThreadPreview platform={platform} parts={thread} ratio={frameOf(description, shown[0]!).ratio} />}
      {description?.followUps.firstComment && firstComment && commentTypes.length > 0 && <FirstCommentPreview platform={platform} text={firstComment} isPost={description.followUps.commentIsPost} />}
      {Object.keys(rest).length > 0 && <OptionsList platform={platform} options={rest} />}
    </section>
  );
}
