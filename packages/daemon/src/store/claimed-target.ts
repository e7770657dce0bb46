import type { ConnectionState } from './connection-states';
import type { CredentialsRow } from './credentials';
import { firstCommentFor, parseAccountKey, threadFor, type ContentType, type PostReplies, type Platform, type TargetReplies, type ThreadPart } from '@socialpub/core';

/** A target this process now holds the lease on, with what an adapter needs to publish it. */
export interface ClaimedTarget {
  id: string;
  jobId: string;
  userId: string;
  platform: Platform;
  /** The account it publishes through (null: accepted before migration 200, the network's default account). */
  connectionId: string | null;
  /** The `platforms` entry that asked for it (`twitter:brand`, or the network): the key of its per-target fields. */
  accountKey: string;
  /** The label its entry names (null: the network's default account). */
  label: string | null;
  type: ContentType;
  dueAt: number;
  /** The attempt number this claim opened (1 on the first). */
  attempt: number;
  attemptStartedAt: number;
  checkpoint: Record<string, unknown>;
  caption: string;
  mediaUrls: string[];
  /** The job's platform_options entry for this target's platform ({} when none). */
  options: Record<string, unknown>;
  /** The thread parts to publish as a reply chain after the post ([] when none). */
  thread: ThreadPart[];
  /** The first comment to post under the post, or null. */
  firstComment: string | null;
  /** What became of the replies so far (the parts out, the comment). */
  replies: TargetReplies;
  /**
   * The state of its account as the claim read it, in the claim's transaction (claims of
   * due targets only; a reconcile's take-over reads it itself).
   */
  connection?: ConnectionState;
  /**
   * Its account's credentials row read with that state (secrets still sealed; null when
   * the account is missing): the publisher opens it instead of reading the connection again.
   */
  credentials?: CredentialsRow | null;
}

/** The target's columns a claim reads (the `t.` part of CLAIMED_COLUMNS). */
export interface ClaimedTargetRow {
  id: string;
  job_id: string;
  user_id: string;
  platform: Platform;
  connection_id: string | null;
  account_key: string | null;
  type: ContentType;
  due_at: number;
  attempts: number;
  attempt_started_at: number;
  checkpoint: string;
  follow_ups: string;
}

/** The job's columns a claim reads. */
export interface ClaimedPostRow {
  caption: string;
  platform_captions: string;
  media_urls: string;
  platform_options: string;
  /** The job's follow_ups column: the replies asked for (thread, first comment). */
  job_follow_ups: string;
}

/** The target columns of a claimed row, as a SELECT or RETURNING list. */
export const CLAIMED_TARGET_COLUMNS = 'id, job_id, user_id, platform, connection_id, account_key, type, due_at, attempts, attempt_started_at, checkpoint, follow_ups';
/** The job columns of a claimed row. */
export const CLAIMED_JOB_COLUMNS = 'caption, platform_captions, media_urls, platform_options, follow_ups AS job_follow_ups';

/** What an adapter gets from the target's and its job's rows: the caption and options of the target's `platforms` entry (its account key). */
export function toClaimed(t: ClaimedTargetRow, j: ClaimedPostRow): ClaimedTarget {
  const captions = JSON.parse(j.platform_captions) as Record<string, string | undefined>;
  const key = t.account_key ?? t.platform;
  return {
    id: t.id,
    jobId: t.job_id,
    userId: t.user_id,
    platform: t.platform,
    connectionId: t.connection_id,
    accountKey: key,
    label: parseAccountKey(key)?.label ?? null,
    type: t.type,
    dueAt: t.due_at,
    attempt: t.attempts,
    attemptStartedAt: t.attempt_started_at,
    checkpoint: JSON.parse(t.checkpoint) as Record<string, unknown>,
    caption: captions[key] ?? j.caption,
    mediaUrls: JSON.parse(j.media_urls) as string[],
    options: (JSON.parse(j.platform_options) as Record<string, Record<string, unknown> | undefined>)[key] ?? {},
    ...repliesOf(t, j),
  };
}

function repliesOf(t: ClaimedTargetRow, j: ClaimedPostRow): Pick<ClaimedTarget, 'thread' | 'firstComment' | 'replies'> {
  const asked = JSON.parse(j.job_follow_ups) as PostReplies;
  return { thread: threadFor(asked, t.platform), firstComment: firstCommentFor(asked, t.platform, t.type), replies: JSON.parse(t.follow_ups) as TargetReplies };
}
