import type { Platform } from '@socialpub/core';

/** How many targets may be in flight at once. */
export interface GateLimits {
  /** Per connection (one account of a user on one platform). */
  perConnection: number;
  /** Per platform, across all its connections. */
  perPlatform: (platform: Platform) => number;
  /** Across everything. */
  global: number;
}

/** What the gate needs to know of a task: whose connection it goes through. */
export interface GateTask {
  userId: string;
  platform: Platform;
  /** The account (connection id); null: the user's account of the platform before accounts had labels. */
  connectionId?: string | null;
}

interface ConnectionLane<T> {
  key: string;
  userId: string;
  platform: Platform;
  waiting: T[];
  running: number;
}

interface UserRing {
  userId: string;
  /** The user's connections with waiting tasks, in turn order. */
  lanes: string[];
  /** Index in `lanes` of the connection whose turn is next. */
  next: number;
  /** Not served yet since it joined: waits in the fresh queue, ahead of the ring. */
  fresh: boolean;
}

/** A connection's lane: the user's account of the platform (several accounts of one platform are several lanes, as the networks count them). */
export const connectionKey = (userId: string, platform: Platform, connectionId: string | null = null) => `${userId}\u0000${platform}\u0000${connectionId ?? ''}`;

/**
 * Admission of the publisher's tasks: at most `perConnection` of one connection, at most
 * `perPlatform` of one platform and at most `global` in all run at once. Within a
 * connection tasks start in arrival order (the wheel fires in due order); across users a
 * free slot goes round-robin, so a user with a thousand waiting tasks takes one slot per
 * turn and another user's one task gets the next slot that fits it.
 *
 * Turn order: the users with waiting tasks form a ring; each user's connections with
 * waiting tasks form a ring of their own. Admission walks the user ring from the user
 * after the last one served, and in each user its connections from the one after that
 * user's last; a connection at its cap, or whose platform is at its cap, is passed over
 * for this turn and keeps its place.
 */
export class ConnectionGate<T extends GateTask> {
  readonly #limits: GateLimits;
  readonly #lanes = new Map<string, ConnectionLane<T>>();
  readonly #users = new Map<string, UserRing>();
  /** Users with waiting tasks who have had a turn, in turn order. */
  readonly #ring: string[] = [];
  /** Users with waiting tasks who have not had a turn yet, in arrival order. */
  readonly #fresh: string[] = [];
  #nextUser = 0;
  readonly #platformRunning = new Map<Platform, number>();
  /** Waiting tasks per platform: when no platform with waiting tasks has room, admission stops at once. */
  readonly #platformWaiting = new Map<Platform, number>();
  #running = 0;
  #waiting = 0;

  constructor(limits: GateLimits) {
    this.#limits = limits;
  }

  /** Tasks waiting for a slot. */
  get waiting(): number {
    return this.#waiting;
  }

  /** Tasks admitted and not yet done. */
  get running(): number {
    return this.#running;
  }

  /** Tasks of a connection in flight. */
  runningOf(userId: string, platform: Platform, connectionId: string | null = null): number {
    return this.#lanes.get(connectionKey(userId, platform, connectionId))?.running ?? 0;
  }

  /** Whether a connection has tasks waiting or in flight. */
  hasWork(userId: string, platform: Platform, connectionId: string | null = null): boolean {
    const lane = this.#lanes.get(connectionKey(userId, platform, connectionId));
    return lane !== undefined && (lane.running > 0 || lane.waiting.length > 0);
  }

  /** Tasks of a platform in flight. */
  runningOn(platform: Platform): number {
    return this.#platformRunning.get(platform) ?? 0;
  }

  /** Queues a task behind its connection's others; returns the tasks that may start now (in order). */
  push(task: T): T[] {
    const lane = this.#lane(task.userId, task.platform, task.connectionId ?? null);
    lane.waiting.push(task);
    this.#waiting++;
    this.#platformWaiting.set(task.platform, (this.#platformWaiting.get(task.platform) ?? 0) + 1);
    if (lane.waiting.length === 1) this.#join(lane);
    return this.#admit();
  }

  /** A task that was admitted ended; returns the tasks that may start now. */
  done(task: T): T[] {
    const key = connectionKey(task.userId, task.platform, task.connectionId ?? null);
    const lane = this.#lanes.get(key);
    if (lane && lane.running > 0) {
      lane.running--;
      this.#running--;
      this.#platformRunning.set(task.platform, Math.max(0, this.runningOn(task.platform) - 1));
      if (lane.running === 0 && lane.waiting.length === 0) this.#lanes.delete(key);
    }
    return this.#admit();
  }

  /** Removes and returns the waiting tasks of one connection (its pause hands them back to the store). */
  drainConnection(userId: string, platform: Platform, connectionId: string | null = null): T[] {
    const lane = this.#lanes.get(connectionKey(userId, platform, connectionId));
    return lane ? this.#drainLane(lane) : [];
  }

  /** Removes and returns the waiting tasks of every connection of a platform (an app-wide pause). */
  drainPlatform(platform: Platform): T[] {
    const out: T[] = [];
    for (const lane of [...this.#lanes.values()]) if (lane.platform === platform) out.push(...this.#drainLane(lane));
    return out;
  }

  /** Removes and returns every waiting task (shutdown). */
  drainAll(): T[] {
    const out: T[] = [];
    for (const lane of [...this.#lanes.values()]) out.push(...this.#drainLane(lane));
    return out;
  }

  #lane(userId: string, platform: Platform, connectionId: string | null): ConnectionLane<T> {
    const key = connectionKey(userId, platform, connectionId);
    let lane = this.#lanes.get(key);
    if (!lane) this.#lanes.set(key, (lane = { key, userId, platform, waiting: [], running: 0 }));
    return lane;
  }

  /** Puts a lane that now has waiting tasks into its user's turn order (a user new to the gate joins the fresh queue). */
  #join(lane: ConnectionLane<T>): void {
    let user = this.#users.get(lane.userId);
    if (!user) {
      this.#users.set(lane.userId, (user = { userId: lane.userId, lanes: [], next: 0, fresh: true }));
      this.#fresh.push(lane.userId);
    }
    user.lanes.push(lane.key);
  }

  #drainLane(lane: ConnectionLane<T>): T[] {
    const out = lane.waiting;
    lane.waiting = [];
    this.#waiting -= out.length;
    this.#platformWaiting.set(lane.platform, (this.#platformWaiting.get(lane.platform) ?? 0) - out.length);
    if (out.length > 0) this.#leave(lane);
    if (lane.running === 0) this.#lanes.delete(lane.key);
    return out;
  }

  /** Takes a lane with no waiting tasks out of its user's turn order (and the user out of the gate when it was the last). */
  #leave(lane: ConnectionLane<T>): void {
    const user = this.#users.get(lane.userId);
    if (!user) return;
    const i = user.lanes.indexOf(lane.key);
    if (i < 0) return;
    user.lanes.splice(i, 1);
    if (i < user.next) user.next--;
    if (user.next >= user.lanes.length) user.next = 0;
    if (user.lanes.length > 0) return;
    this.#users.delete(lane.userId);
    if (user.fresh) {
      this.#fresh.splice(this.#fresh.indexOf(lane.userId), 1);
      return;
    }
    const u = this.#ring.indexOf(lane.userId);
    this.#ring.splice(u, 1);
    if (u < this.#nextUser) this.#nextUser--;
    if (this.#nextUser >= this.#ring.length) this.#nextUser = 0;
  }

  /** Takes the user's next task that fits (its connections in turn), or null. */
  #takeFrom(user: UserRing): T | null {
    const lanes = user.lanes.length;
    for (let l = 0; l < lanes; l++) {
      const li = (user.next + l) % lanes;
      const lane = this.#lanes.get(user.lanes[li] as string) as ConnectionLane<T>;
      if (!this.#fits(lane)) continue;
      const task = lane.waiting.shift() as T;
      this.#waiting--;
      this.#platformWaiting.set(lane.platform, (this.#platformWaiting.get(lane.platform) ?? 0) - 1);
      lane.running++;
      this.#running++;
      this.#platformRunning.set(lane.platform, this.runningOn(lane.platform) + 1);
      user.next = (li + 1) % lanes;
      if (lane.waiting.length === 0) this.#leave(lane);
      return task;
    }
    return null;
  }

  #fits(lane: ConnectionLane<T>): boolean {
    return lane.running < this.#limits.perConnection && this.runningOn(lane.platform) < this.#limits.perPlatform(lane.platform);
  }

  /**
   * The next task whose connection and platform have room: users who have not had a turn
   * yet first (in arrival order), then the ring from the user after the last one served.
   */
  #take(): T | null {
    for (let f = 0; f < this.#fresh.length; f++) {
      const userId = this.#fresh[f] as string;
      const user = this.#users.get(userId) as UserRing;
      const task = this.#takeFrom(user);
      if (!task) continue;
      if (this.#users.has(userId)) {
        // Served once: it joins the ring as the last of the current round.
        this.#fresh.splice(this.#fresh.indexOf(userId), 1);
        user.fresh = false;
        this.#ring.splice(this.#nextUser, 0, userId);
        this.#nextUser = (this.#nextUser + 1) % this.#ring.length;
      }
      return task;
    }
    const users = this.#ring.length;
    for (let u = 0; u < users; u++) {
      const ui = (this.#nextUser + u) % users;
      const userId = this.#ring[ui] as string;
      const user = this.#users.get(userId) as UserRing;
      // Its turn is used up before the task leaves, so a user who leaves the ring does not shift the next turn.
      this.#nextUser = (ui + 1) % users;
      const task = this.#takeFrom(user);
      if (task) return task;
      this.#nextUser = (this.#nextUser - 1 + users) % users;
    }
    return null;
  }

  /** Whether some platform with waiting tasks is below its cap (else no task can start, whatever the connections). */
  #platformHasRoom(): boolean {
    for (const [platform, waiting] of this.#platformWaiting) {
      if (waiting > 0 && this.runningOn(platform) < this.#limits.perPlatform(platform)) return true;
    }
    return false;
  }

  #admit(): T[] {
    const out: T[] = [];
    while (this.#running < this.#limits.global && this.#waiting > 0 && this.#platformHasRoom()) {
      const task = this.#take();
      if (!task) break;
      out.push(task);
    }
    return out;
  }
}
