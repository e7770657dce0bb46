import type { Context } from 'hono';
import type { ReviewActor } from '../store/review-history';
import type { Store } from '../store/store';
import type { AppEnv } from './env';
import { jobSourceOf } from './job-source';

/**
 * Who makes a review decision or a comment, for a post's `approvals` and `comments`: a
 * dashboard session is its account (the email); a key's request is the key, by its name
 * (its prefix when unnamed), from where X-SocialPub-Source says (api, cli, mcp).
 */
export function reviewActorOf(c: Context<AppEnv>, store: Store): ReviewActor {
  if (c.get('session')) return { by: c.get('user').email, source: 'dashboard', reviewLinkId: null };
  const key = store.apiKeys.get(c.get('keyId'));
  const by = key ? (key.name ?? `${key.prefix}…`) : null;
  return { by, source: jobSourceOf(c), reviewLinkId: null };
}
