import { NetworkCard, type NetworkPreviewProps } from '../components/network-card';

/** An Instagram feed post (4:5, a carousel in order), story (9:16, no caption) or reel (9:16): core's frames say which. */
export function InstagramPreview(props: NetworkPreviewProps) {
  return <NetworkCard {...props} />;
}
