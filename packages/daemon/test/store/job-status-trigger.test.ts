import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { TARGET_STATUSES, deriveJobStatus, type TargetStatus } from '@socialpub/core';
import { describe, expect, it } from 'vitest';
import { openTestDatabase } from '../support/store-dialects';
import { createStore } from '../../src/store/store';
import { ManualClock } from '../../src/util/clock';
import { SecretBox } from '../../src/util/secrets';

describe('the job status column', () => {
  it('always equals core deriveJobStatus of the job\'s targets, through inserts and updates', () => {
    const clock = new ManualClock();
    const db = openTestDatabase(':memory:');
    const store = createStore(db, { secrets: new SecretBox(randomBytes(32)), clock });
    const { user } = store.users.ensure('a@example.com', clock.now());
    const readStatus = db.prepare<[string], { status: string }>('SELECT status FROM jobs WHERE id = ?');
    const setStatus = db.prepare('UPDATE targets SET status = ? WHERE id = ?');
    let n = 0;
    const status = fc.constantFrom(...TARGET_STATUSES);
    fc.assert(
      fc.property(fc.array(status, { minLength: 1, maxLength: 5 }), fc.array(fc.tuple(fc.nat(), status), { maxLength: 6 }), (initial, changes) => {
        const id = `job_t${n++}`;
        const targets = initial.map((s, i) => ({ id: `${id}_${i}`, platform: 'twitter' as const, type: 'tweet' as const, scheduleKey: null, dueAt: 0, status: s }));
        store.jobs.create(
          { id, userId: user.id, caption: 'c', platforms: ['twitter'], platformCaptions: {}, platformTypes: {}, mediaUrls: [], publishNow: true, scheduledFor: null, typeSchedule: {}, requireApproval: false, sortAt: 0, createdAt: 0 },
          targets,
        );
        const current: TargetStatus[] = [...initial];
        expect(readStatus.get(id)!.status).toBe(deriveJobStatus(current));
        for (const [i, s] of changes) {
          const k = i % current.length;
          current[k] = s;
          setStatus.run(s, `${id}_${k}`);
          expect(readStatus.get(id)!.status).toBe(deriveJobStatus(current));
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('migration 002', () => {
  it('fills the status of jobs stored before it', async () => {
    const Database = (await import('better-sqlite3')).default;
    const { migrate } = await import('../../src/store/database');
    const { MIGRATIONS } = await import('../../src/store/migrations/index');
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    // Only migration 1, then a job whose targets are all published.
    db.exec('CREATE TABLE migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
    db.exec(MIGRATIONS.find((m) => m.version === 1)!.sql);
    db.prepare('INSERT INTO migrations VALUES (1, ?, 0)').run('init');
    db.prepare("INSERT INTO users VALUES ('u', 'a@example.com', 0, 0)").run();
    db.prepare("INSERT INTO jobs (id, user_id, caption, platforms, sort_at, created_at, updated_at) VALUES ('job_old', 'u', 'c', '[]', 0, 0, 0)").run();
    db.prepare("INSERT INTO targets (id, job_id, user_id, platform, type, due_at, status, updated_at) VALUES ('t1', 'job_old', 'u', 'twitter', 'tweet', 0, 'published', 0)").run();
    migrate(db);
    expect(db.prepare("SELECT status FROM jobs WHERE id = 'job_old'").get()).toEqual({ status: 'published' });
  });
});
