/**
 * The got options of every platform API client: one attempt, no redirects followed, and
 * HTTP errors returned rather than thrown. A retried or redirected POST could post twice,
 * so retrying is the publisher's decision (with its checkpoint), never the HTTP layer's;
 * each client reads the platform's own error body.
 */
export function singleAttempt(timeoutMs: number, signal: AbortSignal | undefined) {
  return { throwHttpErrors: false, retry: { limit: 0 }, timeout: { request: timeoutMs }, followRedirect: false, signal } as const;
}
