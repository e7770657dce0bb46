import type { KeyScope } from '@socialpub/core';
import type { RootLogger } from '../util/logger';
import type { DashboardSession } from '../store/dashboard-sessions';
import type { User } from '../store/users';

/** What an idempotent route needs to record its first answer in its own transaction. */
export interface IdempotencyContext {
  key: string;
  route: string;
  bodyHash: string;
  /** Set by a handler that stored the record itself (with the job it created). */
  saved: boolean;
}

/** Variables the middleware set on the Hono context. Routes mounted behind auth read `c.get('user')`. */
export interface AppVariables {
  requestId: string;
  log: RootLogger;
  user: User;
  keyId: string;
  /** What the caller may do: its key's scope (a dashboard session: full). */
  scope: KeyScope;
  /** Set when the request was authenticated by the dashboard's session cookie (not a key). */
  session?: DashboardSession;
  idempotency: IdempotencyContext | null;
}

export interface AppEnv {
  Variables: AppVariables;
}
