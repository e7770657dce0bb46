import { NetworkCard, type NetworkPreviewProps } from '../components/network-card';
import { durationWords, PollPreview } from '../components/poll-preview';

/** An X post: a poll (2 to 4 choices, open 5 minutes to 7 days) is drawn under the text as X shows it. */
export function TwitterPreview(props: NetworkPreviewProps) {
  const poll = props.options?.poll as { options?: string[]; duration_minutes?: number } | undefined;
  return (
    <NetworkCard
      {...props}
      drawn={['poll']}
      below={poll?.options && <PollPreview choices={poll.options} open={durationWords(poll.duration_minutes ?? 1440)} />}
    />
  );
}
