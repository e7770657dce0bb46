import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

/**
 * Who holds a `publishing` lease: `host/pid/random`. The random part makes every daemon
 * start a new owner; host and pid let a restarted daemon see that the owner of a leftover
 * lease is gone (same host, process no longer running) and reconcile at once instead of
 * waiting for the lease to run out.
 */
export function newLeaseOwner(): string {
  return `${hostname()}/${process.pid}/${randomBytes(6).toString('hex')}`;
}

/** True only when the owner certainly no longer runs: same host and no such process. */
export function isOwnerDead(owner: string | null, self: string): boolean {
  if (owner === null) return true;
  if (owner === self) return false;
  const [host, pidText] = owner.split('/');
  if (host !== hostname()) return false;
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true; // an earlier daemon of this process (restarted in-process)
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    // EPERM: it exists but belongs to someone else, so it may still be a daemon.
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
