import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/database';
import { MIGRATIONS } from '../../src/store/migrations/index';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('migrations are recorded by number, not by name', () => {
  it('opens a database that recorded 130 under its old name (events-mcp) without applying it again', () => {
    const dir = mkdtempSync(join(tmpdir(), 'socialpub-mig-'));
    dirs.push(dir);
    const path = join(dir, 'socialpub.db');
    const first = openDatabase(path);
    // As a daemon from before the rename left it.
    first.prepare("UPDATE migrations SET name = 'events-mcp' WHERE version = 130").run();
    const before = first.prepare('SELECT version, name, applied_at FROM migrations ORDER BY version').all();
    first.close();

    // Applying 130 again would fail (the index and series.source exist): opening must not try.
    const again = openDatabase(path);
    expect(again.prepare('SELECT version, name, applied_at FROM migrations ORDER BY version').all()).toEqual(before);
    expect(again.prepare("SELECT name FROM migrations WHERE version = 130").get()).toEqual({ name: 'events-mcp' });
    expect(again.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'webhook_messages_pending'").get()).toEqual({ name: 'webhook_messages_pending' });
    expect((again.prepare("SELECT name FROM pragma_table_info('series')").pluck().all() as string[]).filter((c) => c === 'source')).toEqual(['source']);
    again.close();
  });

  it('names 130 for what it adds', () => {
    expect(MIGRATIONS.find((m) => m.version === 130)?.name).toBe('webhook-pending-series-source');
    expect(new Set(MIGRATIONS.map((m) => m.version)).size).toBe(MIGRATIONS.length);
  });
});
