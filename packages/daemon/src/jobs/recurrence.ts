import { formatInstant, parseAccountKey, planAccountTargets, wallTimeOf } from '@socialpub/core';
import type { ConnectionInfo } from '../store/connections';
import type { SeriesRecord } from '../store/series';
import type { Store } from '../store/store';
import type { User } from '../store/users';
import type { Clock } from '../util/clock';
import type { RootLogger } from '../util/logger';
import { buildJob, type BuiltPost } from './build-job';
import { acceptedEvents } from './job-events';

/**
 * Occurrences of a series get their jobs this far ahead of their time, so each can be
 * listed, edited or cancelled on its own; later ones are created by the daemon as time
 * passes (the first occurrence always at once).
 */
export const SERIES_HORIZON_MS = 30 * 86_400_000;
/** How often the daemon looks for occurrences entering the horizon. */
export const SERIES_CHECK_MS = 3_600_000;

/**
 * The accounts a series' `platforms` name as they are when an occurrence is made (one
 * renamed or removed since is not found: its targets name no connection and publish
 * through whatever account then has the label, or fail as not connected).
 */
function accountsNow(store: Store, userId: string, platforms: readonly string[]): Map<string, ConnectionInfo> {
  const out = new Map<string, ConnectionInfo>();
  for (const key of platforms) {
    const ref = parseAccountKey(key);
    const conn = ref ? store.connections.find(userId, ref.platform, ref.label) : null;
    if (conn) out.set(key, conn);
  }
  return out;
}

/**
 * Writes the jobs of a series' occurrences from `s.created` up to `until` (epoch ms), each
 * planned from the series' template at the occurrence's time and recording the series'
 * source, and records the progress. Call inside a transaction. Returns the jobs created.
 */
export function createOccurrences(store: Store, user: User, s: SeriesRecord, until: number, now: number): BuiltPost[] {
  const created: BuiltPost[] = [];
  let i = s.created;
  for (; i < s.occurrences.length && (s.occurrences[i] as number) <= until; i++) {
    const at = s.occurrences[i] as number;
    // Offsets only (checked at acceptance), so the plan cannot fail on times; the past is
    // not re-judged: an occurrence created late (the daemon was off) is due at once.
    const plan = planAccountTargets({ ...s.template, publish_now: false, scheduled_for: formatInstant(at), timezone: s.timezone }, Number.NEGATIVE_INFINITY);
    if (!plan.ok) throw new Error(`series ${s.id}: occurrence ${i + 1} does not plan: ${plan.issues[0]?.message}`);
    const times = { timezone: s.timezone, scheduledLocal: wallTimeOf(at, s.timezone), queueSlot: null, seriesId: s.id, occurrence: i + 1 };
    const built = buildJob(user, s.template, at, plan.targets, now, accountsNow(store, user.id, s.template.platforms), times, s.source);
    store.jobs.create(built.job, built.targets);
    store.jobTimes.set(built.job.id, user.id, times);
    for (const event of acceptedEvents(built, now)) store.events.append(event);
    created.push(built);
  }
  if (i !== s.created && !store.series.advance(s, i, now)) throw new Error(`series ${s.id} changed while its occurrences were created`);
  return created;
}

/** Creates the jobs of every occurrence that has entered the horizon; returns their target ids. */
export async function materializeSeries(store: Store, now: number): Promise<string[]> {
  const ids: string[] = [];
  for (const s of store.series.due(now + SERIES_HORIZON_MS)) {
    const user = store.users.get(s.userId);
    if (!user) continue;
    const jobs = await store.commits.durable(() => createOccurrences(store, user, s, now + SERIES_HORIZON_MS, now));
    for (const j of jobs) ids.push(...j.targets.map((t) => t.id));
  }
  return ids;
}

export interface SeriesMaterializer {
  stop(): Promise<void>;
}

/** Runs materializeSeries now and every SERIES_CHECK_MS of the injected clock, telling the scheduler of new targets. */
export function startSeriesMaterializer(deps: { store: Store; clock: Clock; log: RootLogger; targetsChanged: (ids: string[]) => void }): SeriesMaterializer {
  const abort = new AbortController();
  const loop = (async () => {
    while (!abort.signal.aborted) {
      try {
        const ids = await materializeSeries(deps.store, deps.clock.now());
        if (ids.length > 0) deps.targetsChanged(ids);
      } catch (error) {
        deps.log.error('creating series occurrences failed; trying again later', { error });
      }
      await deps.clock.sleep(SERIES_CHECK_MS, abort.signal).catch(() => undefined);
    }
  })();
  return {
    async stop() {
      abort.abort();
      await loop;
    },
  };
}
