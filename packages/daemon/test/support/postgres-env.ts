import { inject } from 'vitest';

// The postgres project's tests (and the processes they start) find the cluster here.
process.env.SOCIALPUB_TEST_POSTGRES_URL = inject('postgresUrl');
