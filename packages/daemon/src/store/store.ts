import type { Clock } from '../util/clock';
import type { SecretBox } from '../util/secrets';
import type { DB } from './database';
import { createApiKeysRepository } from './api-keys';
import { createConnectionsRepository } from './connections';
import { createIdempotencyRepository } from './idempotency';
import { createJobTimesRepository } from './job-times';
import { createJobsRepository } from './jobs';
import { createQueuesRepository } from './queues';
import { createSeriesRepository } from './series';
import { createRateWindowsRepository } from './rate-windows';
import { createSettingsRepository } from './settings';
import { createUsersRepository } from './users';

export type Store = ReturnType<typeof createStore>;

/**
 * The repositories over one connection, each preparing its statements once. Nothing
 * outside the store touches SQL, so a different database would only replace this folder.
 */
export function createStore(db: DB, opts: { secrets: SecretBox; clock: Clock }) {
  return {
    db,
    users: createUsersRepository(db),
    apiKeys: createApiKeysRepository(db),
    jobs: createJobsRepository(db),
    jobTimes: createJobTimesRepository(db),
    queues: createQueuesRepository(db),
    series: createSeriesRepository(db),
    idempotency: createIdempotencyRepository(db),
    rateWindows: createRateWindowsRepository(db),
    settings: createSettingsRepository(db),
    connections: createConnectionsRepository(db, opts.secrets, opts.clock),
    /** Runs `fn` in one IMMEDIATE transaction (takes the write lock up front, so it never fails half-way on a busy database). */
    immediate<T>(fn: () => T): T {
      return db.transaction(fn).immediate();
    },
  };
}
