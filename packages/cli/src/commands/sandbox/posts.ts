import type { Ctx } from '../../context';
import type { Platform, SandboxPost as SandboxPostView } from '@socialpub/core';
import { NotFoundError } from '../../errors';
import { readAdmin } from '../../local/admin';
import { parsePlatform } from '../../platform-name';
import { shortTime, truncate } from '../../ui/format';

/**
 * `socialpub sandbox posts [--platform P]`: what the simulators received — the user's view of
 * a dry run. From the data dir when it is the daemon's the CLI talks to (every user's posts),
 * else through that daemon's API (`GET /sandbox/posts`: the key's user's posts).
 */
export async function sandboxPosts(ctx: Ctx, { platform }: { platform?: string | undefined }): Promise<void> {
  const only = platform === undefined ? undefined : parsePlatform(platform);
  const from = await ctx.readsFrom();
  const posts: SandboxPostView[] = 'api' in from ? (await (await ctx.client()).sandbox.posts(only ? { platform: only } : {})).posts : await localPosts(from.local, only);
  const text = (body: Record<string, unknown>) => {
    const v = body.text ?? body.caption ?? body.message ?? body.description ?? body.title ?? body.status;
    return typeof v === 'string' ? v : '';
  };
  // The options the platform received: body.options where the simulator gathers them (Meta),
  // else the request fields X and Mastodon take beside the text (their simulators keep the platforms' own names).
  const X_OPTION_FIELDS = ['poll', 'reply_settings', 'quote_tweet_id', 'visibility', 'spoiler_text', 'language'];
  const options = (body: Record<string, unknown>) => {
    const o = body.options ?? Object.fromEntries(X_OPTION_FIELDS.filter((k) => body[k] !== undefined).map((k) => [k, body[k]]));
    if (typeof o !== 'object' || o === null) return '';
    return Object.entries(o)
      .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
      .join(' ');
  };
  ctx.log.result({ posts }, () =>
    ctx.log.table(
      posts,
      [
        { header: 'PLATFORM', value: (p) => p.platform },
        // A post the simulator deleted (a take-down) says so, with when.
        { header: 'KIND', value: (p) => (p.removed_at ? `${p.kind} (removed ${shortTime(p.removed_at)})` : p.kind) },
        { header: 'POSTED', value: (p) => shortTime(p.created_at) },
        { header: 'POST', value: (p) => p.post_url ?? p.post_id },
        { header: 'TEXT', value: (p) => truncate(text(p.body), 40) },
        { header: 'OPTIONS', value: (p) => truncate(options(p.body), 60) },
        // A thread part or self-reply names the post it answers (Mastodon's simulator keeps the API's in_reply_to_id); a comment the post it is under.
        { header: 'ON', value: (p) => String(p.body.in_reply_to ?? p.body.in_reply_to_id ?? p.body.on ?? '') },
        // Two sandbox accounts of one network told apart (twitter:brand's brand); last, so scripts reading the first columns are unchanged; blank when no connection of it is known.
        { header: 'ACCOUNT', value: (p) => p.label ?? '' },
      ],
      only ? `the ${only} simulator received nothing yet` : 'the simulators received nothing yet',
    ),
  );
}

/**
 * Every post the simulators on this data dir received (the machine owner's view): the
 * simulators' own sandbox.db (their process, `sandbox serve`), read only; else the daemon's
 * database, where simulators running in the daemon's process keep them.
 */
async function localPosts(dataDir: string, only: Platform | undefined): Promise<SandboxPostView[]> {
  const { presentSandboxPost, sandboxLabels, openSandboxReader, sandboxDbPath, adminDatabase } = await import('../../local/daemon-extras');
  const filter = only ? { platform: only } : {};
  const own = openSandboxReader(sandboxDbPath(dataDir, adminDatabase(dataDir)));
  if (own) {
    const rows = readThenClose(own, (o) => o.store.posts.list(filter));
    // The simulators may run alone (`sandbox serve` on a data dir no daemon has used): no connections, no labels.
    const labelOf = await readAdmin(dataDir, (admin) => sandboxLabels(admin.store.connections.list())).catch((err: unknown) => {
      if (err instanceof NotFoundError) return sandboxLabels([]);
      throw err;
    });
    return rows.map((p) => presentSandboxPost(p, labelOf));
  }
  // Every user's connections name the accounts that made the posts (their labels).
  const [rows, labelOf] = await readAdmin(dataDir, (admin) => [admin.store.sandbox.posts.list(filter), sandboxLabels(admin.store.connections.list())] as const);
  return rows.map((p) => presentSandboxPost(p, labelOf));
}

function readThenClose<O extends { close(): void }, T>(opened: O, fn: (o: O) => T): T {
  try {
    return fn(opened);
  } finally {
    opened.close();
  }
}
