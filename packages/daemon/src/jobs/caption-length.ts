// The counting lives in core, shared with the dashboard's previews.
export { captionLength, HASHTAG, MENTION, LINK } from '@socialpub/core/caption-length';
