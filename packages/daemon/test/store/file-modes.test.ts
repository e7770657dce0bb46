import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAdmin } from '../../src/admin/admin';
import { resolveConfig } from '../../src/config';
import { startDaemon } from '../../src/daemon';
import { createLogger } from '../../src/util/logger';
import { SAMPLES } from '../media/helpers';

const roots: string[] = [];
let umask: number;
beforeEach(() => {
  // A permissive umask, as on most desktops: the modes must not depend on it.
  umask = process.umask(0o022);
});
afterEach(() => {
  process.umask(umask);
  for (const d of roots.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Every entry under `dir` with its permission bits, e.g. { 'socialpub.db': 0o600 }. */
function modes(dir: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) out[entry] = statSync(join(dir, entry)).mode & 0o777;
  return out;
}

/** A data dir that already exists, world-readable, with a world-readable file and media file in it. */
function existingDataDir(): string {
  const root = mkdtempSync(join(tmpdir(), 'sp-modes-'));
  roots.push(root);
  const dir = join(root, 'data');
  mkdirSync(join(dir, 'media', 'files'), { recursive: true, mode: 0o755 });
  chmodSync(dir, 0o755);
  writeFileSync(join(dir, 'config.json'), '{}', { mode: 0o644 });
  writeFileSync(join(dir, 'media', 'files', 'old.png'), SAMPLES.png, { mode: 0o644 });
  return dir;
}

describe('data dir file modes', () => {
  it('keys create turns an existing 0755 data dir into 0700 and creates the database 0600', () => {
    const dir = existingDataDir();
    const admin = openAdmin(dir);
    admin.createKey({ email: 'me@example.com' });
    admin.close();
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const found = modes(dir);
    expect(found['socialpub.db']).toBe(0o600);
    expect(found['secret.key']).toBe(0o600);
    expect(found['config.json']).toBe(0o600);
    expect(found[join('media', 'files', 'old.png')]).toBe(0o600);
  });

  it('the running daemon keeps every file 0600 (database, -wal, -shm, media) and every directory 0700', async () => {
    const dir = existingDataDir();
    const admin = openAdmin(dir);
    const { api_key } = admin.createKey({ email: 'me@example.com' });
    admin.close();
    chmodSync(join(dir, 'socialpub.db'), 0o644); // as an older version left it
    const daemon = await startDaemon(resolveConfig({ dataDir: dir, port: 0 }, {}), { logger: createLogger({ level: 'silent' }) });
    try {
      const res = await fetch(`${daemon.url}/api/agents/v1/media/upload?filename=a.png`, {
        method: 'POST',
        headers: { 'x-api-key': api_key, 'content-type': 'application/octet-stream' },
        body: SAMPLES.png,
      });
      expect(res.status).toBeLessThan(300);
      const found = modes(dir);
      expect(Object.keys(found)).toEqual(expect.arrayContaining(['socialpub.db', 'socialpub.db-wal', 'socialpub.db-shm', 'secret.key']));
      const mediaFiles = Object.keys(found).filter((p) => p.startsWith(join('media', 'files')) && statSync(join(dir, p)).isFile());
      expect(mediaFiles.length).toBeGreaterThanOrEqual(2);
      for (const [path, mode] of Object.entries(found)) {
        expect([path, mode.toString(8)]).toEqual([path, statSync(join(dir, path)).isDirectory() ? '700' : '600']);
      }
      expect(statSync(dir).mode & 0o777).toBe(0o700);
    } finally {
      await daemon.close();
    }
  });
});
