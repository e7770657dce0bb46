import type { ErrorDetail } from '@socialpub/core';
import type { ValidationInput } from '../adapter';
import { links, threadsLength } from '../meta/text-rules';
import { captionPath, countIssue, mediaIssues, MB, reachability, typePath } from '../meta/validation-kit';

/** Threads' rules (docs/reference/platforms.md §4.2, §4.3) for one target. */
export function validateThreads(input: ValidationInput): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  if (input.type !== 'post') return [{ path: typePath('threads'), message: `Threads has no content type "${input.type}"; use post.` }];
  const caption = input.caption ?? '';
  const len = threadsLength(caption);
  if (len > 500) {
    out.push({ path: captionPath('threads'), message: `Threads posts may have at most 500 characters, emojis counted as their UTF-8 bytes; this one counts ${len}.` });
  }
  const n = links(caption).length;
  if (n > 5) out.push({ path: captionPath('threads'), message: `Threads posts may contain at most 5 links; this one has ${n}.` });
  if (input.media.length === 0 && caption.trim() === '') out.push({ path: captionPath('threads'), message: 'A Threads post without media needs text.' });
  out.push(...countIssue(input, 0, 20, 'posts'));
  out.push(...mediaIssues(input, { image: { maxBytes: 8 * MB, mimeTypes: ['image/jpeg', 'image/png'] }, video: { maxBytes: 1024 * MB, maxSec: 300 } }, 'posts'));
  out.push(...reachability(input));
  return out;
}
