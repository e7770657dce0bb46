import { NetworkCard, type NetworkPreviewProps } from '../components/network-card';

/** A Bluesky post; replies follow as a thread, the first comment as a reply from the account. */
export function BlueskyPreview(props: NetworkPreviewProps) {
  return <NetworkCard {...props} />;
}
