import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
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
  } catch (err) {
    // EPERM: it exists but belongs to someone else, so it may still be a daemon.
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
  // kill(pid, 0) succeeds on a zombie too: a SIGKILLed daemon stays one until its parent
  // reaps it (seen for over a second), and waiting for its lease would cost minutes.
  return isZombie(pid);
}

/** True when /proc says the process has exited and waits to be reaped (Z) or is dying (X). */
function isZombie(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (err) {
    // Gone between the two looks: dead. No /proc (not Linux): kill's answer stands.
    return (err as NodeJS.ErrnoException).code === 'ENOENT' && process.platform === 'linux';
  }
  // "pid (comm) S ...": comm may hold spaces and parentheses, so read after the last ')'.
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state === 'Z' || state === 'X' || state === 'x';
}
