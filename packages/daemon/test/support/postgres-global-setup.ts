import type { TestProject } from 'vitest/node';
import { startPostgresCluster } from '../../../../scripts/postgres-cluster';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

/** The `postgres` project's cluster: one per run, each test database a schema of its own in it. */
export default async function setup(project: TestProject): Promise<() => void> {
  const cluster = await startPostgresCluster();
  project.provide('postgresUrl', cluster.url);
  // Not process.env: every project's workers are forked from this process after this
  // setup, so the unit project's store tests would run on PostgreSQL too and SQLite on none.
  // The postgres project's workers set it themselves (postgres-env.ts).
  return () => cluster.stop();
}
