import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { isOwnerDead, newLeaseOwner } from '../../src/publisher/lease-owner';

/** The state letter of /proc/<pid>/stat (R, S, Z, ...). */
function procState(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  } catch {
    return null;
  }
}

const parents: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const p of parents.splice(0)) p.kill('SIGKILL');
});

describe('lease owners and zombies', () => {
  it.runIf(process.platform === 'linux')('takes a zombie (exited, not yet reaped) for a dead owner, and a live process for a live one', async () => {
    // `sh` starts a short `sleep` in the background, prints its pid and becomes a long `sleep`,
    // which never reaps it: once the short one ends it stays a zombie, as a SIGKILLed daemon
    // does until its parent waits. (It outlives the exec, so `sh` cannot reap it first.)
    const parent = spawn('sh', ['-c', 'sleep 2 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    parents.push(parent);
    const [chunk] = (await once(parent.stdout!, 'data')) as [Buffer];
    const zombie = Number(chunk.toString().trim());
    // While it runs it is alive to isOwnerDead.
    expect(isOwnerDead(`${hostname()}/${zombie}/x`, newLeaseOwner())).toBe(false);
    // A real process ending in real time: poll its state, bounded (10 s), on a loaded machine too.
    for (let i = 0; i < 1_000 && procState(zombie) !== 'Z'; i++) await new Promise((r) => setTimeout(r, 10));
    expect(procState(zombie)).toBe('Z');
    const me = newLeaseOwner();
    expect(isOwnerDead(`${hostname()}/${zombie}/x`, me)).toBe(true);
    // The sleeping parent is alive.
    expect(isOwnerDead(`${hostname()}/${parent.pid}/x`, me)).toBe(false);
  });
});
