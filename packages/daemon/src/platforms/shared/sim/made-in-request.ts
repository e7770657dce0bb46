import { AsyncLocalStorage } from 'node:async_hooks';

/** What the request being answered has made so far (set by the sandbox's fault stage). */
interface RequestMarks {
  madePost: boolean;
}

const current = new AsyncLocalStorage<RequestMarks>();

/**
 * Runs `handle` (a simulator answering one request) and says whether it made a post:
 * the simulator recorder notes each post it adds in the request it belongs to. The fault
 * stage uses it to lose the answer of exactly the calls that made something ("made but
 * unanswered").
 */
export async function trackMade<T>(handle: () => Promise<T>): Promise<{ result: T; madePost: boolean }> {
  const marks: RequestMarks = { madePost: false };
  const result = await current.run(marks, handle);
  return { result, madePost: marks.madePost };
}

/** Notes that the request being answered made a post (no-op outside trackMade). */
export function noteMadePost(): void {
  const marks = current.getStore();
  if (marks) marks.madePost = true;
}
