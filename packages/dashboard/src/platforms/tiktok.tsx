import { NetworkCard, type NetworkPreviewProps } from '../components/network-card';

/** A TikTok video or photo post, on TikTok's 9:16 screen. */
export function TiktokPreview(props: NetworkPreviewProps) {
  return <NetworkCard {...props} />;
}
