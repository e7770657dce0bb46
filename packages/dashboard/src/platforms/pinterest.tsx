import { NetworkCard, type NetworkPreviewProps } from '../components/network-card';

/** A Pin at Pinterest's 2:3: its title above the description (the caption), and where it links. */
export function PinterestPreview(props: NetworkPreviewProps) {
  const { title, link } = (props.options ?? {}) as { title?: unknown; link?: unknown };
  return (
    <NetworkCard
      {...props}
      drawn={['title', 'link']}
      above={typeof title === 'string' && <p class="preview-title caption-text">{title}</p>}
      below={typeof link === 'string' && <p class="caption-text muted">Opens {link}</p>}
    />
  );
}
