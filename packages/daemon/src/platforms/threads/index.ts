import { PLATFORM_INFO } from '@socialpub/core';
import { connectMeta } from '../meta/connect';
import { refreshThreadsToken } from '../meta/token-endpoints';
import { metaRefresher } from '../meta/refresher';
import { metaSandbox } from '../meta/sim/sandbox';
import type { PlatformModule } from '../platform-module';
import { createThreadsAdapter } from './adapter';
import { createThreadsRemover } from './remove';

/** Threads: the Threads API's containers (pulled media). */
export const threads: PlatformModule = {
  platform: 'threads',
  limits: PLATFORM_INFO.threads,
  createAdapter: () => createThreadsAdapter(),
  simulator: metaSandbox,
  connect: (options, io, deps) => connectMeta('threads', options, io, deps),
  refresher: metaRefresher('threads', 'graph.threads.net', refreshThreadsToken),
  deletion: { supported: true, createRemover: () => createThreadsRemover() },
};
