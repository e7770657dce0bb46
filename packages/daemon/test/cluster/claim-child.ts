/**
 * Another daemon's claim, in a process of its own (job-status-locks.test.ts): argv the
 * database URL (with its schema), the lease owner, the claim's time and the target ids
 * (JSON). Prints `ready` once its connection is open, then what the claim took (the ids,
 * null where it took nothing) as JSON, or `error <SQLSTATE>` when the claim failed.
 */
import { openDatabase } from '../../src/store/database';
import { createTargetQueue } from '../../src/store/target-queue';

const [url, owner, now, ids] = process.argv.slice(2) as [string, string, string, string];
const db = openDatabase(url);
const queue = createTargetQueue(db);
process.stdout.write('ready\n');
// At once: the parent waits until this claim holds its first job row.
try {
  const out = queue.claimMany(JSON.parse(ids) as string[], Number(now), owner, Number(now) + 60_000);
  process.stdout.write(`${JSON.stringify(out.map((c) => (c !== null && typeof c === 'object' ? c.id : c)))}\n`);
} catch (error) {
  process.stdout.write(`error ${(error as { code?: string }).code ?? String(error)}\n`);
}
db.close();
