import { targetShown, type MediaStatus, type Post, type PublishResult } from '@socialpub/core';

/** Short text renderings of tool results, for clients that show text rather than structuredContent. */

export function postLine(p: Post): string {
  // A held target says what holds it and until when (the API's next_attempt_at and hold, issue 35).
  const held = (t: (typeof p.targets)[number]) =>
    t.hold && t.next_attempt_at ? `; waiting for ${t.hold.reason === 'rate_limit' ? "the platform's rate limit" : 'a retry'} until ${t.next_attempt_at}` : '';
  const targets = p.targets.map(
    (t) => `${targetShown(t)} ${t.status} at ${t.scheduled_for}${t.post_url ? ` ${t.post_url}` : ''}${t.error ? ` (${t.error.code}: ${t.error.message})` : ''}${held(t)}`,
  );
  return `${p.job_id} ${p.status} [source ${p.source}]: ${targets.join('; ')}`;
}

export function publishText(r: PublishResult): string {
  const held = r.status === 'pending_approval' ? '\nIt waits for a person to approve it (socialpub schedule approve); it is not published yet.' : '';
  return `${r.message}\njob_id ${r.job_id}, status ${r.status}${held}`;
}

export function mediaText(s: MediaStatus): string {
  const p = s.progress;
  const head = `media task ${s.task_id} ${s.status}: ${p.completed} of ${p.total} files ready, ${p.failed} failed`;
  if (s.status === 'processing') return `${head}\nCall media_status with wait: true to wait for it.`;
  const files = s.files.map((f) => `- ${f.prepared_url} (${f.type}, ${f.size} bytes) from ${f.original_url}`);
  const failed = s.failed.map((f) => `- refused ${f.original_url}: ${f.error.code}: ${f.error.message}`);
  const error = s.status === 'failed' ? [`error ${s.error.code}: ${s.error.message}`] : [];
  return [head, ...error, ...files, ...failed, ...(s.files.length > 0 ? ['Use the prepared URLs in media_urls.'] : [])].join('\n');
}
