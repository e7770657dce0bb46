import { NetworkCard, type NetworkPreviewProps } from '../components/network-card';

/** A Threads post: a topic tag is shown with the text, as Threads shows it; replies follow as a thread. */
export function ThreadsPreview(props: NetworkPreviewProps) {
  const topic = props.options?.topic_tag;
  return <NetworkCard {...props} drawn={['topic_tag']} above={typeof topic === 'string' && <p class="muted">Topic: {topic}</p>} />;
}
