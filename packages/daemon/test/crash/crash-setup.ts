/**
 * The test side the simulator crash tests share (the child side is publishing-child.ts):
 * a folder for their files, a small JPEG, the simulators served from this process (so what
 * a platform made survives the daemon's death), an answer held back so the daemon dies
 * waiting for it, and the daemon child's hard kill, restart and clean stop.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import type { Hono } from 'hono';
import { afterAll, expect } from 'vitest';
import { startDaemonChild } from './spawn-daemon';

/** A small, valid JPEG. */
export const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1'), Buffer.alloc(64, 7), Buffer.from([0xff, 0xd9])]);

export const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A folder for the test file's databases and media, removed after its tests. */
export function crashDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Serves `root` on 127.0.0.1 (a free port); `close` also drops the connections of answers held back. */
export async function serveSimulators(root: Hono): Promise<{ url: string; close(): void }> {
  const server = serve({ fetch: root.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((r) => server.once('listening', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      server.close();
    },
  };
}

/**
 * On requests under `/${host}` of `root`: the `skip`-th one `matches` (0: the first) is
 * carried out by the platform and its answer never sent. Resolves once that happened:
 * the platform acted, and the daemon waits for an answer that never comes.
 */
export function holdOneAnswer(root: Hono, host: string, matches: (method: string, path: string) => boolean, skip = 0): Promise<void> {
  let seen = 0;
  let held: () => void = () => {};
  const moment = new Promise<void>((resolve) => (held = resolve));
  root.use(`/${host}/*`, async (c, next) => {
    const path = new URL(c.req.url).pathname.slice(host.length + 1);
    const match = seen <= skip && matches(c.req.method, path) && seen++ === skip;
    await next();
    if (!match) return;
    held();
    await new Promise(() => {});
  });
  return moment;
}

export type DaemonChild = ReturnType<typeof startDaemonChild>;

/** Starts the daemon child script and waits for its "ready". */
export async function startReady(script: string, args: string[]): Promise<DaemonChild> {
  const run = startDaemonChild(script, args);
  await run.ready;
  return run;
}

/** SIGKILLs the child: it dies without exit code. */
export async function killHard(run: DaemonChild): Promise<void> {
  run.child.kill('SIGKILL');
  expect(await run.exited).toBeNull();
}

/** Waits (up to `ms`) until `done`, then stops the child with SIGTERM: it exits 0. */
export async function stopWhen(run: DaemonChild, done: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline) await wait(100);
  run.child.kill('SIGTERM');
  expect(await run.exited).toBe(0);
}

/** One run's files under `dir`, named after it: the JPEG, the given MP4, and the database's path. */
export function runFiles(dir: string, name: string, mp4: Buffer): { image: string; video: string; dbPath: string } {
  const run = join(dir, name.replace(/\W+/g, '-'));
  writeFileSync(`${run}.jpg`, JPEG);
  writeFileSync(`${run}.mp4`, mp4);
  return { image: `${run}.jpg`, video: `${run}.mp4`, dbPath: `${run}.db` };
}

/** Starts the child, SIGKILLs it once `moment` comes, and starts it again: answers the second. */
export async function killAtAndRestart(script: string, args: string[], moment: Promise<void>): Promise<DaemonChild> {
  const first = await startReady(script, args);
  await moment;
  await killHard(first);
  return startReady(script, args);
}
