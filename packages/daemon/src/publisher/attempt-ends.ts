import type { Platform } from '@socialpub/core';
import type { PublishOutcome } from '../platforms/adapter';
import type { AttemptEnd, StoredError } from '../store/target-queue';
import { PublishError } from '../platforms/errors';
import { redactUrlSecrets } from '../util/redact-url';

// The ends and stored errors an attempt writes.

export function published(outcome: PublishOutcome, now: number, kind: 'published' | 'reconciled_published'): AttemptEnd {
  return { status: 'published', postId: outcome.postId, postUrl: outcome.postUrl, publishedAt: outcome.publishedAt ?? now, outcome: kind };
}

export function review(reason: string): AttemptEnd {
  return { status: 'needs_review', error: { code: 'outcome_unknown', message: reason, platformCode: null } };
}

export function authExpired(platform: Platform, reason: string | null): StoredError {
  return { code: 'auth_expired', message: `the ${platform} connection has expired${reason ? `: ${reason}` : ''}; reconnect it`, platformCode: null };
}

export function notConnected(platform: Platform): StoredError {
  return { code: 'platform_not_connected', message: `no ${platform} connection for this user`, platformCode: null };
}

export function noAdapter(platform: Platform): StoredError {
  return { code: 'platform_error', message: `publishing to ${platform} is not available in this build`, platformCode: null };
}

export function platformCodeOf(err: unknown): string | null {
  return err instanceof PublishError ? err.platformCode : null;
}

/** An error's text as stored on the target and logged: credentials in URLs (signed media URLs) taken out. */
export function errorMessage(err: unknown): string {
  return redactUrlSecrets(err instanceof Error ? err.message : String(err));
}
