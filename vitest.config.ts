import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url));

/**
 * The suites that check the product as it is shipped rather than its behaviour: the npm
 * packages (pnpm pack, publint, arethetypeswrong, npm install from the registry), the SDK's
 * built bundle, the single executable and the MCP conformance suite. They are the
 * `packaging` project (`pnpm test:packaging`, which .ci/run runs after `pnpm test`); every
 * other test file is the `unit` project (`pnpm test`), the fast and complete check of behaviour.
 */
const packaging = ['packages/cli/test/npm-packages.test.ts', 'packages/cli/test/binary.test.ts', 'packages/sdk/test/dist.test.ts', 'packages/mcp/test/conformance.test.ts'];

/**
 * Suites about PostgreSQL itself (copying a SQLite data dir into it, `socialpub db
 * migrate-to`; several daemons over one database): they need the cluster, so they run in
 * the `postgres` project only.
 */
const postgresOnly = ['packages/daemon/test/admin/migrate-to-postgres.test.ts', 'packages/cli/test/db-migrate-to.test.ts', 'packages/cli/test/postgres-commands.test.ts', 'packages/daemon/test/cluster/**/*.test.ts', 'packages/daemon/test/store/postgres-sync-client.test.ts'];

/**
 * The suites that run again on PostgreSQL (issue 34): the store's, the interface contract
 * (http/), the job-status property test, the jobs service, events, scheduler and
 * publisher. They open their database with test/support/store-dialects.ts, which in this
 * project gives each a schema of its own in one throwaway cluster per run
 * (scripts/postgres-cluster.ts; the run fails if it cannot start).
 */
const onPostgres = [
  ...postgresOnly,
  'packages/daemon/test/store/repositories.test.ts',
  'packages/daemon/test/store/connections.test.ts',
  'packages/daemon/test/store/batched-target-writes.test.ts',
  'packages/daemon/test/store/job-status-trigger.test.ts',
  'packages/daemon/test/store/state-events.test.ts',
  'packages/daemon/test/store/inbox-repository.test.ts',
  'packages/daemon/test/store/post-metrics.test.ts',
  'packages/daemon/test/store/postgres-*.test.ts',
  'packages/daemon/test/http/**/*.test.ts',
  'packages/daemon/test/jobs/**/*.test.ts',
  'packages/daemon/test/events/outbox.test.ts',
  'packages/daemon/test/events/events-hub.test.ts',
  'packages/daemon/test/events/typed-payloads.test.ts',
  'packages/daemon/test/scheduler/**/*.test.ts',
  'packages/daemon/test/publisher/**/*.test.ts',
  'packages/daemon/test/crash/crash.test.ts',
];

export default defineConfig({
  resolve: {
    alias: {
      // The SDK's workspace-only entry (the CLI's client, docs/architecture.md "Start-up"); before the package's own.
      '@socialpub/sdk/client': fileURLToPath(new URL('./packages/sdk/src/light-client.ts', import.meta.url)),
      // Subpaths of core (the dashboard's light imports; twitter-text kept out of its index); before the package's own.
      '@socialpub/core/caption-length': fileURLToPath(new URL('./packages/core/src/caption-length.ts', import.meta.url)),
      '@socialpub/core/platforms': fileURLToPath(new URL('./packages/core/src/platforms.ts', import.meta.url)),
      '@socialpub/core/event-types': fileURLToPath(new URL('./packages/core/src/event-types.ts', import.meta.url)),
      '@socialpub/core/rate-limited': fileURLToPath(new URL('./packages/core/src/rate-limited.ts', import.meta.url)),
      '@socialpub/core': src('core'),
      '@socialpub/daemon': src('daemon'),
      '@socialpub/sdk': src('sdk'),
      '@socialpub/mcp': src('mcp'),
    },
  },
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // expect.poll gives up after 1 s by default: a browser test's live check answered in 4.8 s
    // when CI shared its 2 cores with other runs (load 12-14). Waiting longer only slows a
    // test that fails; one that passes returns as soon as its condition holds.
    expect: { poll: { timeout: 10_000 } },
    pool: 'forks',
    // Vitest's default for a run is one worker fewer than the cores: on CI's 2 cores that is one
    // file at a time, while most files spend their time waiting on daemons, simulators, child
    // processes and Chromium. The daemon's http/ files took 60 s one at a time and 36 s three
    // at a time on 2 cores at load 8; the whole suite passed three at a time at load 14.
    maxWorkers: Math.max(3, availableParallelism()),
    projects: [
      { extends: true, test: { name: 'unit', include: ['packages/*/test/**/*.test.ts', 'examples/**/*.test.ts'], exclude: ['**/node_modules/**', ...packaging, ...postgresOnly] } },
      { extends: true, test: { name: 'packaging', include: packaging } },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: onPostgres,
          globalSetup: ['packages/daemon/test/support/postgres-global-setup.ts'],
          setupFiles: ['packages/daemon/test/support/postgres-env.ts'],
        },
      },
    ],
  },
});
