import type { FunctionComponent } from 'preact';
import { NetworkCard, type NetworkPreviewProps } from '../components/network-card';
import { BlueskyPreview } from './bluesky';
import { FacebookPreview } from './facebook';
import { InstagramPreview } from './instagram';
import { LinkedinPreview } from './linkedin';
import { MastodonPreview } from './mastodon';
import { PinterestPreview } from './pinterest';
import { ThreadsPreview } from './threads';
import { TiktokPreview } from './tiktok';
import { TwitterPreview } from './twitter';
import { YoutubePreview } from './youtube';

/** Each network's own preview, one per platform module; a platform registered from outside core gets the shared frame. */
const PREVIEWS: Readonly<Record<string, FunctionComponent<NetworkPreviewProps>>> = {
  bluesky: BlueskyPreview,
  facebook: FacebookPreview,
  instagram: InstagramPreview,
  linkedin: LinkedinPreview,
  mastodon: MastodonPreview,
  pinterest: PinterestPreview,
  threads: ThreadsPreview,
  tiktok: TiktokPreview,
  twitter: TwitterPreview,
  youtube: YoutubePreview,
};

/** A post as `props.platform` will show it. */
export function NetworkPreview(props: NetworkPreviewProps) {
  const Preview = PREVIEWS[props.platform] ?? NetworkCard;
  return <Preview {...props} />;
}
