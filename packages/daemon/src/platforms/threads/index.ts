import { PLATFORM_INFO } from '@socialpub/core';
import { connectMeta } from '../meta/connect';
import { metaSandbox } from '../meta/sim/sandbox';
import { createThreadsComments } from './comments';
import type { PlatformModule } from '../platform-module';
import { createThreadsAnalytics } from './analytics';
import { createThreadsAdapter } from './adapter';
import { createThreadsRemover } from './remove';
import { threadsTokenRefresher } from './refresh-token';

/** Threads: the Threads API's containers (pulled media). */
export const threads: PlatformModule = {
  platform: 'threads',
  limits: PLATFORM_INFO.threads,
  createAdapter: () => createThreadsAdapter(),
  simulator: metaSandbox,
  connect: (options, io, deps) => connectMeta('threads', options, io, deps),
  refresher: threadsTokenRefresher,
  comments: { supported: true, create: () => createThreadsComments() },
  deletion: { supported: true, createRemover: () => createThreadsRemover() },
  analytics: () => createThreadsAnalytics(),
};
