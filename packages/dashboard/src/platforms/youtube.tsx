import { NetworkCard, type NetworkPreviewProps } from '../components/network-card';

/** A YouTube video or Short: the title above, as YouTube shows it; the caption is the description. */
export function YoutubePreview(props: NetworkPreviewProps) {
  const title = props.options?.title;
  return <NetworkCard {...props} drawn={['title']} above={typeof title === 'string' && <p class="preview-title caption-text">{title}</p>} />;
}
