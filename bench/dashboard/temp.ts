import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A temp data dir for the bench's daemon, removed at the end. */
export function tempDir(): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), 'socialpub-bench-dashboard-'));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
