import { NetworkCard, type NetworkPreviewProps } from '../components/network-card';

/** A LinkedIn post or document: a document's title is shown above it, as LinkedIn shows it. */
export function LinkedinPreview(props: NetworkPreviewProps) {
  const title = props.options?.document_title;
  return <NetworkCard {...props} drawn={['document_title']} above={typeof title === 'string' && props.types.includes('document') && <p class="preview-title caption-text">{title}</p>} />;
}
