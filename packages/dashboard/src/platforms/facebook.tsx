import { NetworkCard, type NetworkPreviewProps } from '../components/network-card';

/** A Facebook page post, story (9:16, no text) or reel; a shared link is named under the post. */
export function FacebookPreview(props: NetworkPreviewProps) {
  const link = props.options?.link;
  return <NetworkCard {...props} drawn={['link']} below={typeof link === 'string' && <p class="caption-text muted">Link: {link}</p>} />;
}
