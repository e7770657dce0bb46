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
  process.env.SOCIALPUB_TEST_POSTGRES_URL = cluster.url;
  return () => cluster.stop();
}
