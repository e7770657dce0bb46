/**
 * A hierarchical timer wheel over integer epoch milliseconds, holding ids and times only.
 *
 * Level 0 has 256 slots of 1 ms; each level above has 64 slots, each as wide as the whole
 * level below (256 ms, 16.4 s, 17.5 min), so the four levels span 18.6 hours; anything
 * later waits in an overflow list that is re-sorted into the levels every 17.5 minutes.
 * Adding and removing are O(1); advancing costs O(slots passed + items fired), and an
 * empty stretch of time is skipped level by level, so a jump of days is cheap.
 *
 * Removal is lazy: `remove()` and re-`add()` only change the id's live time in a map, and
 * copies left in other slots are dropped when their slot comes round (a copy fires only if
 * the map still holds exactly its time). This keeps the slots plain arrays of strings —
 * about 100 bytes per entry with the map — which is what lets the wheel hold a day's
 * worth of targets in a few megabytes.
 */
const SLOTS = [256, 64, 64, 64] as const;
const WIDTHS = [1, 256, 256 * 64, 256 * 64 * 64] as const;
const LEVELS = SLOTS.length;
const TOP_WIDTH = WIDTHS[3];

export class TimerWheel {
  /** id -> the one time it is due at; the truth that slot copies are checked against. */
  readonly #times = new Map<string, number>();
  readonly #slots: string[][][] = SLOTS.map((n) => Array.from({ length: n }, () => []));
  /** Copies stored per level (live or stale): a level with 0 can be skipped. */
  readonly #counts: number[] = SLOTS.map(() => 0);
  #overflow: string[] = [];
  /** Ids added at or before the current time: they fire on the next advance. */
  #ready: string[] = [];
  #current: number;

  constructor(start: number) {
    this.#current = Math.floor(start);
  }

  /** Ids held (live entries only). */
  get size(): number {
    return this.#times.size;
  }

  /** The time the wheel has advanced to. */
  get current(): number {
    return this.#current;
  }

  has(id: string): boolean {
    return this.#times.has(id);
  }

  timeOf(id: string): number | undefined {
    return this.#times.get(id);
  }

  /** Holds `id` until `at`; an id already held moves to the new time. */
  add(id: string, at: number): void {
    const t = Math.floor(at);
    this.#times.set(id, t);
    this.#place(id, t);
  }

  remove(id: string): boolean {
    return this.#times.delete(id);
  }

  /**
   * Moves the wheel to `now` and returns the ids due by then, in due order (ids due at the
   * same millisecond in the order they were added). Each fired id leaves the wheel.
   */
  advance(now: number): string[] {
    const out: string[] = [];
    const end = Math.floor(now);
    this.#drainReady(out);
    while (this.#current < end) {
      const t = this.#nextStop(end);
      this.#current = t;
      this.#cascade(t);
      this.#fireSlot(t, out);
      this.#drainReady(out);
    }
    return out;
  }

  /**
   * The earliest time at which advancing could fire something (or must re-sort a higher
   * level), or null when the wheel is empty. May be early (stale copies), never late.
   */
  nextWake(): number | null {
    if (this.#times.size === 0) return null;
    if (this.#ready.length > 0) return this.#current;
    return this.#nextStop(Number.MAX_SAFE_INTEGER);
  }

  /** The first time after `current`, at most `limit`, where a slot must be looked at. */
  #nextStop(limit: number): number {
    let best = limit;
    for (let level = LEVELS - 1; level >= 1; level--) {
      const count = this.#counts[level] as number;
      const hasOverflow = level === LEVELS - 1 && this.#overflow.length > 0;
      if (count === 0 && !hasOverflow) continue;
      const w = WIDTHS[level] as number;
      const boundary = (Math.floor(this.#current / w) + 1) * w;
      if (boundary < best) best = boundary;
    }
    if ((this.#counts[0] as number) > 0) {
      const slots0 = this.#slots[0] as string[][];
      const stop = Math.min(best, this.#current + SLOTS[0] - 1);
      for (let t = this.#current + 1; t <= stop; t++) {
        if ((slots0[t % SLOTS[0]] as string[]).length > 0) return t;
      }
    }
    return best;
  }

  #place(id: string, at: number): void {
    if (at <= this.#current) {
      this.#ready.push(id);
      return;
    }
    for (let level = 0; level < LEVELS; level++) {
      const w = WIDTHS[level] as number;
      const n = SLOTS[level] as number;
      const block = Math.floor(at / w);
      if (block - Math.floor(this.#current / w) < n) {
        ((this.#slots[level] as string[][])[block % n] as string[]).push(id);
        (this.#counts as number[])[level] = (this.#counts[level] as number) + 1;
        return;
      }
    }
    this.#overflow.push(id);
  }

  /** At time t, re-sorts every higher-level slot that starts at t into the levels below. */
  #cascade(t: number): void {
    if (t % TOP_WIDTH === 0 && this.#overflow.length > 0) {
      const waiting = this.#overflow;
      this.#overflow = [];
      for (const id of waiting) {
        const at = this.#times.get(id);
        if (at !== undefined) this.#place(id, at);
      }
    }
    for (let level = LEVELS - 1; level >= 1; level--) {
      const w = WIDTHS[level] as number;
      if (t % w !== 0) continue;
      const n = SLOTS[level] as number;
      const slots = this.#slots[level] as string[][];
      const index = (t / w) % n;
      const ids = slots[index] as string[];
      if (ids.length === 0) continue;
      slots[index] = [];
      this.#counts[level] = (this.#counts[level] as number) - ids.length;
      for (const id of ids) {
        const at = this.#times.get(id);
        // A copy whose id has moved to another block is stale: the live copy is elsewhere.
        if (at !== undefined && Math.floor(at / w) * w === t) this.#place(id, at);
      }
    }
  }

  #fireSlot(t: number, out: string[]): void {
    const slots0 = this.#slots[0] as string[][];
    const index = t % SLOTS[0];
    const ids = slots0[index] as string[];
    if (ids.length === 0) return;
    slots0[index] = [];
    this.#counts[0] = (this.#counts[0] as number) - ids.length;
    for (const id of ids) {
      if (this.#times.get(id) === t) {
        this.#times.delete(id);
        out.push(id);
      }
    }
  }

  #drainReady(out: string[]): void {
    if (this.#ready.length === 0) return;
    const ids = this.#ready;
    this.#ready = [];
    // Several may be overdue by different amounts: keep due order among them.
    const live: { id: string; at: number; seq: number }[] = [];
    ids.forEach((id, seq) => {
      const at = this.#times.get(id);
      if (at !== undefined && at <= this.#current) live.push({ id, at, seq });
    });
    live.sort((a, b) => a.at - b.at || a.seq - b.seq);
    for (const { id } of live) {
      if (!this.#times.has(id)) continue; // a duplicate copy already fired
      this.#times.delete(id);
      out.push(id);
    }
  }
}
