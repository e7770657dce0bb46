import { rm } from 'node:fs/promises';
import type { Logger } from '../util/logger';
import type { MediaService } from './media-service';

export interface MediaSweeperOptions {
  /** Time between sweeps. Default 60 s. */
  intervalMs?: number;
  /** Publish-time temp fetches older than this are removed. Default 6 h. */
  tempMaxAgeMs?: number;
  /** Finished tasks with no file left are forgotten this long after they finished. Default 7 days. */
  taskRetentionMs?: number;
  log?: Logger;
}

const BATCH = 200;

/**
 * Deletes prepared files once their 24 h are up, except files a target that will still
 * publish (pending approval, scheduled, publishing) uses: those stay until it is done.
 * State is in SQLite (expires_at), so a restart loses nothing: the first sweep at start
 * catches up on everything that expired while the daemon was down.
 */
export class MediaSweeper {
  readonly #media: MediaService;
  readonly #intervalMs: number;
  readonly #tempMaxAgeMs: number;
  readonly #taskRetentionMs: number;
  readonly #log: Logger | undefined;
  #stop: AbortController | null = null;
  #loop: Promise<void> | null = null;

  constructor(media: MediaService, options: MediaSweeperOptions = {}) {
    this.#media = media;
    this.#intervalMs = options.intervalMs ?? 60_000;
    this.#tempMaxAgeMs = options.tempMaxAgeMs ?? 6 * 3_600_000;
    this.#taskRetentionMs = options.taskRetentionMs ?? 7 * 24 * 3_600_000;
    this.#log = options.log;
  }

  /** Sweeps now, then every interval (on the service's clock) until stop(). */
  start(): void {
    if (this.#stop) return;
    const stop = (this.#stop = new AbortController());
    this.#loop = (async () => {
      while (!stop.signal.aborted) {
        try {
          await this.sweep();
        } catch (err) {
          this.#log?.error('media sweep failed', { error: err });
        }
        try {
          await this.#media.clock.sleep(this.#intervalMs, stop.signal);
        } catch {
          return;
        }
      }
    })();
  }

  async stop(): Promise<void> {
    this.#stop?.abort();
    await this.#loop;
    this.#stop = null;
    this.#loop = null;
  }

  /** One pass. Returns how many prepared files were deleted. */
  async sweep(): Promise<{ deleted: number; kept: number }> {
    const now = this.#media.clock.now();
    const store = this.#media.store;
    let deleted = 0;
    let kept = 0;
    const seen = new Set<string>();
    for (;;) {
      const due = store.dueForExpiry(now, BATCH + seen.size).filter((f) => !seen.has(f.id));
      if (due.length === 0) break;
      for (const file of due) {
        seen.add(file.id);
        if (store.isRetained(file.token)) {
          kept++;
          continue;
        }
        // The row first: from this moment the file answers 410, then the bytes go.
        store.markExpired(file.id, now);
        await rm(this.#media.pathOf(file), { force: true });
        deleted++;
      }
    }
    await this.#media.sweepTemp(this.#tempMaxAgeMs);
    store.purgeTasks(now - this.#taskRetentionMs);
    if (deleted) this.#log?.info('prepared media expired', { deleted, kept });
    return { deleted, kept };
  }
}
