import { openDatabase } from '@socialpub/daemon';

/**
 * The requests a daemon has counted against its users' rate limits, all classes together:
 * the sum of its rate_windows, read from its data dir (the waits-budget tests of the CLI,
 * the SDK and MCP check what a wait costs with it).
 */
export function countedRequests(dataDir: string): number {
  const db = openDatabase(`${dataDir}/socialpub.db`);
  try {
    return (db.prepare('SELECT coalesce(sum(count), 0) AS n FROM rate_windows').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** The requests counted in one rate class (`scheduled`: the scheduled-content class, 100 an hour), every user and window together. */
export function countedIn(dataDir: string, rateClass: string): number {
  const db = openDatabase(`${dataDir}/socialpub.db`);
  try {
    return (db.prepare('SELECT coalesce(sum(count), 0) AS n FROM rate_windows WHERE class = ?').get(rateClass) as { n: number }).n;
  } finally {
    db.close();
  }
}
