import type { Failure } from './errors';

interface ScopeDetail {
  path?: unknown;
  required_scope?: unknown;
  key_scope?: unknown;
}

/** The scopes, least first: a key reaches what its scope and those before it allow. */
const SCOPES = ['read', 'agent', 'full'] as const;

/**
 * A 403 `insufficient_scope` said once, in the words of the command typed: the daemon's
 * message names the HTTP route (`POST /api/agents/v1/content/publish needs a key of scope
 * agent; …`), its hint and its `scope: needs agent` detail say it twice more. This gives one
 * message naming the command (`socialpub publish`) and the scopes that do reach it, and one
 * hint saying how to get such a key and use it. The details stay for --json (detailsInHint).
 * `command`: the command line's command, `socialpub publish`; undefined when not known.
 */
export function scopeRefusal(failure: Failure, command: string | undefined): Failure {
  if (failure.code !== 'insufficient_scope') return failure;
  const detail = (failure.details ?? []).find((d): d is ScopeDetail => typeof (d as ScopeDetail | null)?.required_scope === 'string') as ScopeDetail | undefined;
  const needed = typeof detail?.required_scope === 'string' ? detail.required_scope : undefined;
  if (!needed) return failure;
  const has = typeof detail?.key_scope === 'string' ? detail.key_scope : undefined;
  const reaching = SCOPES.slice(Math.max(0, SCOPES.indexOf(needed as (typeof SCOPES)[number])));
  const scopes = reaching.length > 1 ? `${reaching.slice(0, -1).join(', ')} or ${reaching.at(-1)}` : needed;
  // The route-wide refusal names the route; a refusal about one post (an agent key editing a scheduled caption) says why in its own words: keep those.
  const routeWide = /^[A-Z]+ \/\S+ needs a key of scope /.test(failure.message);
  const what = command ? `\`${command}\`` : 'this command';
  const message = routeWide ? `${what} needs a key of scope ${scopes}${has ? `; this key's scope is ${has}` : ''}` : failure.message.replace(/ \(create one with socialpub keys create --scope \w+\)$/, '');
  const hint = `make one on the daemon's machine with \`socialpub keys create --scope ${needed}\`, then use it (--api-key, SOCIALPUB_API_KEY or \`socialpub config set api-key <key>\`)`;
  return { ...failure, message, hint, detailsInHint: true };
}
