/**
 * The scheduler's seam: what the jobs service and the HTTP layer tell the scheduler and read
 * from it, implemented by scheduler/scheduler.ts and wired by the composition root.
 */

/** What the scheduler exposes to the HTTP layer. */
export interface SchedulerHooks {
  /** Targets were created, re-timed, approved or cancelled: re-read them from the store now. */
  targetsChanged(targetIds: readonly string[]): void;
  status(): SchedulerStatus;
}

export interface SchedulerStatus {
  running: boolean;
  /** Epoch ms of the last wheel tick, or null before the first. */
  lastTick: number | null;
  stalled: boolean;
  wheelSize: number;
}

/** Used when no scheduler runs (tests of the HTTP layer alone, admin commands). */
export const idleScheduler: SchedulerHooks = {
  targetsChanged: () => {},
  status: () => ({ running: false, lastTick: null, stalled: false, wheelSize: 0 }),
};
