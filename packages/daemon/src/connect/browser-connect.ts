import { randomBytes } from 'node:crypto';
import type { Platform } from '@socialpub/core';
import type { ConnectionInfo } from '../store/connections';
import type { Clock } from '../util/clock';
import type { ConnectDeps, ConnectOptions, Connector } from '../platforms/platform-module';
import { ConnectError } from '../oauth/connect-error';
import type { ConnectIO } from '../oauth/connect-io';

/** A connect flow started from the dashboard lives this long (the consent page, a page choice). */
export const BROWSER_CONNECT_TTL_MS = 10 * 60_000;
/** Flows one user may have open at once. */
const MAX_PENDING_PER_USER = 5;
/** Flows one user may have started in 10 minutes, finished ones included (they stay readable that long). */
const MAX_FLOWS_PER_USER = 20;
/** How long a request that moves a flow (the callback, a choice) waits for its next state before answering. */
const STEP_WAIT_MS = 20_000;

export type PendingStatus = 'authorizing' | 'choosing' | 'connected' | 'failed';

/** A connect flow in progress, as GET /connections/pending/{id} shows it. */
export interface PendingConnect {
  id: string;
  userId: string;
  platform: Platform;
  status: PendingStatus;
  /** Where the browser goes to consent (null until the flow built it). */
  authorizeUrl: string | null;
  /** What the platform's app must list as a redirect URI: the daemon's /connect/callback. */
  redirectUri: string;
  /** While `choosing`: what to choose from (Facebook: the pages), each with the id POST …/choose takes. */
  question: string | null;
  choices: { id: string; label: string }[] | null;
  /** While `choosing`: several choices may be taken, each becoming an account of its own (Facebook pages, LinkedIn authors). */
  multiple: boolean;
  connection: ConnectionInfo | null;
  /** Every account the flow saved (several pages chosen: one each), the first being `connection`. */
  connections: ConnectionInfo[];
  error: string | null;
  /** What the flow said along the way (e.g. TikTok's note about an unaudited app). */
  messages: string[];
  createdAt: number;
  expiresAt: number;
}

interface Flow {
  pending: PendingConnect;
  state: string | null;
  callback: ((url: string) => void) | null;
  /** Takes the ids chosen (one unless the question is `multiple`); false when one is not among the choices. */
  pick: ((ids: readonly string[]) => boolean) | null;
  /** Resolves at the flow's next state change. */
  changed: Promise<void>;
  signal: () => void;
  abort: AbortController;
}

export interface BrowserConnectsOptions {
  clock: Clock;
  /** Where the connectors save and which hosts they call (tests point them at the simulators). */
  deps: ConnectDeps;
  /** The platform's connect flow (platforms/registry.ts). */
  connector: (platform: Platform) => Connector | undefined;
}

const PASTE_QUESTION = /^After authorizing, paste/;

/** The id a choice is made by: its value's `id` (a Facebook page), else its position. */
const choiceId = (value: unknown, index: number) =>
  value !== null && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'string' ? (value as { id: string }).id : String(index);

/**
 * Live connections made from the dashboard: the platform's own connect flow (the one
 * `socialpub connect` runs) with the browser as its terminal. The flow's authorize URL is
 * answered to the page, the provider redirects to the daemon's GET /connect/callback
 * (matched by the OAuth `state`, which only this flow knows), and a question the flow asks
 * (the Facebook page) waits for POST /connections/pending/{id}/choose. Flows live in
 * memory for 10 minutes: a restart drops a half-done connect, never a connection.
 */
export class BrowserConnects {
  readonly #flows = new Map<string, Flow>();
  readonly #byState = new Map<string, Flow>();

  constructor(private readonly opts: BrowserConnectsOptions) {}

  /** Starts a flow; resolves once it has its authorize URL (or failed before one). */
  async start(userId: string, platform: Platform, options: ConnectOptions, redirectUri: string): Promise<PendingConnect> {
    this.#prune();
    const connector = this.opts.connector(platform);
    if (!connector) throw new ConnectError(`Connecting ${platform} live is not available`);
    const mine = [...this.#flows.values()].filter((f) => f.pending.userId === userId);
    if (mine.length >= MAX_FLOWS_PER_USER) throw new ConnectError(`${MAX_FLOWS_PER_USER} connects were started in the last 10 minutes; wait a few minutes`);
    if (mine.filter((f) => !this.#done(f)).length >= MAX_PENDING_PER_USER) throw new ConnectError(`${MAX_PENDING_PER_USER} connects are already in progress; finish or let them expire (10 minutes)`);
    const now = this.opts.clock.now();
    const flow = this.#newFlow({
      id: `pcn_${randomBytes(12).toString('hex')}`,
      userId,
      platform,
      status: 'authorizing',
      authorizeUrl: null,
      redirectUri,
      question: null,
      choices: null,
      multiple: false,
      connection: null,
      connections: [],
      error: null,
      messages: [],
      createdAt: now,
      expiresAt: now + BROWSER_CONNECT_TTL_MS,
    });
    this.#flows.set(flow.pending.id, flow);
    // A question the page answers through POST …/choose: one choice, or several (`multiple`).
    const ask = <T>(choices: { label: string; value: T }[], question: string, multiple: boolean) =>
      new Promise<T[]>((resolve, reject) => {
        const ids = choices.map((c, i) => choiceId(c.value, i));
        flow.pending.question = question;
        flow.pending.choices = choices.map((c, i) => ({ id: ids[i] as string, label: c.label }));
        flow.pending.multiple = multiple;
        flow.pick = (picked) => {
          const at = [...new Set(picked)].map((p) => ids.indexOf(p));
          if (at.length === 0 || at.some((i) => i < 0) || (!multiple && at.length > 1)) return false;
          flow.pick = null;
          flow.pending.question = null;
          flow.pending.choices = null;
          flow.pending.multiple = false;
          flow.pending.status = 'authorizing';
          resolve(at.map((i) => (choices[i] as { value: T }).value));
          return true;
        };
        flow.abort.signal.addEventListener('abort', () => reject(new ConnectError('the connect expired (10 minutes) before a choice was made')), { once: true });
        this.#set(flow, 'choosing');
      });
    const io: ConnectIO = {
      receivesRedirect: true,
      prompt: (question) => {
        if (!PASTE_QUESTION.test(question)) return Promise.reject(new ConnectError(`${question.replace(/ \(.*\)$/, '')} is required`));
        return new Promise<string>((resolve, reject) => {
          flow.callback = resolve;
          flow.abort.signal.addEventListener('abort', () => reject(new ConnectError('the connect expired (10 minutes) before the platform sent the browser back')), { once: true });
        });
      },
      choose: async <T>(question: string, choices: { label: string; value: T }[]) => (await ask(choices, question, false))[0] as T,
      chooseMany: <T>(question: string, choices: { label: string; value: T }[]) => ask(choices, question, true),
      print: (line) => void flow.pending.messages.push(line),
      openBrowser: (url) => {
        const state = new URL(url).searchParams.get('state');
        if (state) {
          flow.state = state;
          this.#byState.set(state, flow);
        }
        flow.pending.authorizeUrl = url;
        this.#set(flow, 'authorizing');
      },
    };
    const ready = flow.changed;
    // Every account the flow saves is the flow's to show (several pages chosen: one each).
    const deps: ConnectDeps = {
      ...this.opts.deps,
      connections: {
        ...this.opts.deps.connections,
        save: (...args: Parameters<ConnectDeps['connections']['save']>) => {
          const saved = this.opts.deps.connections.save(...args);
          flow.pending.connections.push(saved);
          return saved;
        },
        ...(this.opts.deps.connections.listForUser ? { listForUser: this.opts.deps.connections.listForUser.bind(this.opts.deps.connections) } : {}),
      },
    };
    connector(options, io, deps).then(
      (connection) => {
        flow.pending.connection = connection;
        this.#finish(flow, 'connected');
      },
      (error: unknown) => {
        flow.pending.error = error instanceof Error ? error.message : String(error);
        this.#finish(flow, 'failed');
      },
    );
    this.opts.clock.sleep(BROWSER_CONNECT_TTL_MS, flow.abort.signal).then(
      () => {
        if (this.#done(flow)) return;
        flow.pending.error = 'the connect expired (10 minutes)';
        this.#finish(flow, 'failed');
      },
      () => {},
    );
    await ready;
    return { ...flow.pending };
  }

  /** The flow a provider's redirect belongs to (by its `state`), moved on with the redirect's address; null when it is no flow's. */
  async callback(state: string, url: string): Promise<PendingConnect | null> {
    const flow = this.#byState.get(state);
    if (!flow || !flow.callback) return null;
    const resume = flow.callback;
    flow.callback = null;
    this.#byState.delete(state);
    const next = flow.changed;
    resume(url);
    await this.#wait(next);
    return { ...flow.pending };
  }

  get(userId: string, id: string): PendingConnect | null {
    this.#prune();
    const flow = this.#flows.get(id);
    return flow && flow.pending.userId === userId ? { ...flow.pending } : null;
  }

  /**
   * Answers the flow's question with one choice, or several where it is `multiple`; false
   * when the flow asks none, an id is not among its choices, or several answer a question of one.
   */
  async choose(userId: string, id: string, choice: string | readonly string[]): Promise<PendingConnect | null | false> {
    const flow = this.#flows.get(id);
    if (!flow || flow.pending.userId !== userId) return null;
    const next = flow.changed;
    if (!flow.pick || !flow.pick(typeof choice === 'string' ? [choice] : choice)) return false;
    await this.#wait(next);
    return { ...flow.pending };
  }

  /** Ends every flow (daemon shutdown). */
  close(): void {
    for (const flow of this.#flows.values()) flow.abort.abort();
    this.#flows.clear();
    this.#byState.clear();
  }

  #newFlow(pending: PendingConnect): Flow {
    const flow = { pending, state: null, callback: null, pick: null, abort: new AbortController() } as unknown as Flow;
    this.#arm(flow);
    return flow;
  }

  #arm(flow: Flow) {
    flow.changed = new Promise<void>((resolve) => (flow.signal = resolve));
  }

  #set(flow: Flow, status: PendingStatus) {
    flow.pending.status = status;
    const signal = flow.signal;
    this.#arm(flow);
    signal();
  }

  #finish(flow: Flow, status: 'connected' | 'failed') {
    if (this.#done(flow)) return;
    if (flow.state) this.#byState.delete(flow.state);
    flow.callback = null;
    flow.pick = null;
    flow.pending.question = null;
    flow.pending.choices = null;
    flow.pending.multiple = false;
    this.#set(flow, status);
    flow.abort.abort();
  }

  #done(flow: Flow) {
    return flow.pending.status === 'connected' || flow.pending.status === 'failed';
  }

  /** Waits for the next state, but never holds a request longer than STEP_WAIT_MS (real time: a slow platform). */
  async #wait(next: Promise<void>) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([next, new Promise<void>((resolve) => (timer = setTimeout(resolve, STEP_WAIT_MS)))]);
    clearTimeout(timer);
  }

  /** Drops flows past their expiry (finished ones stay readable until then). */
  #prune() {
    const now = this.opts.clock.now();
    for (const [id, flow] of this.#flows) {
      if (now < flow.pending.expiresAt) continue;
      if (!this.#done(flow)) {
        flow.pending.error = 'the connect expired (10 minutes)';
        this.#finish(flow, 'failed');
      }
      this.#flows.delete(id);
    }
  }
}
