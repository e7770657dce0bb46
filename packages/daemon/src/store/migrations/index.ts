import type Database from 'better-sqlite3';
import { migration001 } from './001-init';
import { migration002 } from './002-job-status';
import { migration003 } from './003-job-status-insert-guard';
import { migration010 } from './010-target-fire-index';
import { migration020 } from './020-media-files-name';
import { migration030 } from './030-agents';
import { migration040 } from './040-events';
import { migration050 } from './050-time';
import { migration060 } from './060-job-platform-options';
import { migration070 } from './070-sandbox-state';
import { migration080 } from './080-platform-pauses';
import { migration090 } from './090-follow-ups';
import { migration100, widenTargetStatusCheck } from './100-target-removed';
import { migration130 } from './130-webhook-pending-series-source';
import { migration148 } from './148-sandbox-post-owner';
import { migration150 } from './150-dashboard';
import { migration160 } from './160-events-in-code';
import { migration170 } from './170-sandbox-connection-account';
import { migration180 } from './180-key-scopes';
import { migration183 } from './183-job-version';
import { migration186 } from './186-session-key';
import { migration190, widenRevisionChecks } from './190-revision-loop';
import { migration200 } from './200-accounts';
import { migration205, migration205Postgres } from './205-daemons';
import { migration220, migration220Postgres } from './220-inbox';
import { migration230, migration230Postgres } from './230-drafts';
import { migration240, migration240Postgres } from './240-post-metrics';
import { migration250, migration250Postgres } from './250-inbox-reply-deleted';
import { migration260, migration260Postgres } from './260-analytics-pauses';
import { migration290, migration290Postgres } from './290-sandbox-state-changes';
import { migration300, migration300Postgres } from './300-sandbox-codes-windows';
import { migration310, migration310Postgres } from './310-job-status-lock';
import { migration320, migration320Postgres } from './320-inbox-written-order';

export interface Migration {
  version: number;
  name: string;
  sql: string;
  /**
   * The same change in PostgreSQL's dialect. Required from 210 on; 1-200 are PostgreSQL's
   * baseline (store/postgres/baseline.ts).
   */
  postgres?: string;
  /** Runs before `sql`, in the same transaction: schema edits SQL alone cannot make (see 100). */
  before?: (db: Database.Database) => void;
}

/**
 * Numbered migrations, applied in order at start, each in its own transaction.
 * Append only: never edit a migration that has shipped; add the next number.
 * A database records each applied migration by `version` (store/database.ts `migrate`);
 * `name` and the file name only describe it, so a misleading one may be corrected (130
 * was `events-mcp` until it was named for what it does) without touching existing databases.
 */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'init', sql: migration001 },
  { version: 2, name: 'job-status', sql: migration002 },
  { version: 3, name: 'job-status-insert-guard', sql: migration003 },
  { version: 10, name: 'target-fire-index', sql: migration010 },
  { version: 20, name: 'media-files-name', sql: migration020 },
  { version: 30, name: 'agents', sql: migration030 },
  { version: 40, name: 'events', sql: migration040 },
  { version: 50, name: 'time', sql: migration050 },
  { version: 60, name: 'job-platform-options', sql: migration060 },
  { version: 70, name: 'sandbox-state', sql: migration070 },
  { version: 80, name: 'platform-pauses', sql: migration080 },
  { version: 90, name: 'follow-ups', sql: migration090 },
  { version: 100, name: 'target-removed', sql: migration100, before: widenTargetStatusCheck },
  { version: 130, name: 'webhook-pending-series-source', sql: migration130 },
  { version: 148, name: 'sandbox-post-owner', sql: migration148 },
  { version: 150, name: 'dashboard', sql: migration150 },
  { version: 160, name: 'events-in-code', sql: migration160 },
  { version: 170, name: 'sandbox-connection-account', sql: migration170 },
  { version: 180, name: 'key-scopes', sql: migration180 },
  { version: 183, name: 'job-version', sql: migration183 },
  { version: 186, name: 'session-key', sql: migration186 },
  { version: 190, name: 'revision-loop', sql: migration190, before: widenRevisionChecks },
  { version: 200, name: 'accounts', sql: migration200 },
  { version: 205, name: 'daemons', sql: migration205, postgres: migration205Postgres },
  { version: 220, name: 'inbox', sql: migration220, postgres: migration220Postgres },
  { version: 230, name: 'drafts', sql: migration230, postgres: migration230Postgres },
  { version: 240, name: 'post-metrics', sql: migration240, postgres: migration240Postgres },
  { version: 250, name: 'inbox-reply-deleted', sql: migration250, postgres: migration250Postgres },
  { version: 260, name: 'analytics-pauses', sql: migration260, postgres: migration260Postgres },
  { version: 290, name: 'sandbox-state-changes', sql: migration290, postgres: migration290Postgres },
  { version: 300, name: 'sandbox-codes-windows', sql: migration300, postgres: migration300Postgres },
  { version: 310, name: 'job-status-lock', sql: migration310, postgres: migration310Postgres },
  { version: 320, name: 'inbox-written-order', sql: migration320, postgres: migration320Postgres },
];
