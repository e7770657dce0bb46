import type { Clock } from '../util/clock';
import type { SecretBox } from '../util/secrets';
import type { DB } from './database';
import { createApiKeysRepository } from './api-keys';
import { createConnectionsRepository } from './connections';
import { createIdempotencyRepository } from './idempotency';
import { createJobsRepository } from './jobs';
import { createPlatformPausesRepository } from './platform-pauses';
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
    idempotency: createIdempotencyRepository(db),
    rateWindows: createRateWindowsRepository(db),
    settings: createSettingsRepository(db),
    connections: createConnectionsRepository(db, opts.secrets, opts.clock),
    platformPauses: createPlatformPausesRepository(db),
    /** Runs `fn` in one IMMEDIATE transaction (takes the write lock up front, so it never fails half-way on a busy database). */
    immediate<T>(fn: () => T): T {
      return db.transaction(fn).immediate();
    },
  };
}
