import type { Platform } from '@socialpub/core';
import type { ConnectionListing } from '@socialpub/daemon';
import type { Ctx } from '../context';
import { CliError, EXIT } from '../errors';
import { withAdmin } from '../local/admin';
import { connectFlowOptions, missingFlag } from '../local/connect-flags';
import { openBrowser } from '../local/open-browser';

/** What `socialpub connect` takes for a live connection, as its flags give it. */
export interface LiveCredentials {
  clientId?: string | undefined;
  clientSecret?: string | undefined;
  redirectUri?: string | undefined;
  /** The platforms' own flags given (`--board`, `--handle`...), by commander's attribute name (connect-flags.ts). */
  flags: Record<string, string>;
  browser: boolean;
}

export interface LiveConnectInput extends LiveCredentials {
  dataDir: string;
  platform: Platform;
  email?: string | undefined;
  /** --label: another account of the platform (or the one of that label, reconnected). */
  label?: string | undefined;
}

/**
 * Connects a real account through the platform's flow, which lives with the platform in
 * the daemon package (authorize URL, loopback redirect, token exchange, page choice). The
 * CLI lends it its prompts (missing credentials are asked, secrets hidden), its stderr,
 * and a browser opener; the connection is saved through the data dir's store.
 */
export async function connectLive(ctx: Ctx, input: LiveConnectInput): Promise<ConnectionListing & { connected?: ConnectionListing[] }> {
  const { connectLivePlatform } = await import('../local/daemon-extras');
  const io = {
    prompt: async (question: string, opts: { secret?: boolean } = {}) =>
      opts.secret ? ctx.prompts.password(`${question}:`, missingFlag(question)) : ctx.prompts.input(`${question}:`, missingFlag(question)),
    choose: async <T>(question: string, choices: { label: string; value: T }[]): Promise<T> => {
      const picked = await ctx.prompts.select(question, missingFlag(question), choices.map((c, i) => ({ value: String(i), name: c.label })));
      return (choices[Number(picked)] as { value: T }).value;
    },
    // Several pages (LinkedIn authors) of one login: each one chosen becomes an account.
    chooseMany: async <T>(question: string, choices: { label: string; value: T }[]): Promise<T[]> => {
      const picked = await ctx.prompts.checkbox(question, missingFlag(question), choices.map((c, i) => ({ value: String(i), name: c.label })), { required: true });
      return picked.map((i) => (choices[Number(i)] as { value: T }).value);
    },
    print: (line: string) => ctx.log.info(line),
    openBrowser: (url: string) => openBrowser(ctx.io, url, input.browser),
  };
  return withAdmin(input.dataDir, async (admin) => {
    const email = input.email;
    const users = admin.store.users.list();
    const user = email ? admin.store.users.ensure(email, Date.now()).user : users.length === 1 ? users[0] : undefined;
    if (!user) {
      throw new CliError('usage', users.length ? `several users exist (${users.map((u) => u.email).join(', ')}); name one with --user` : 'no user yet: run `socialpub up` or `socialpub keys create` first', EXIT.usage);
    }
    const options = {
      userId: user.id,
      ...(input.clientId ? { appId: input.clientId, clientId: input.clientId } : {}),
      ...(input.clientSecret ? { appSecret: input.clientSecret, clientSecret: input.clientSecret } : {}),
      ...(input.redirectUri ? { redirectUri: input.redirectUri } : {}),
      ...(input.label ? { label: input.label } : {}),
      ...connectFlowOptions(input.flags),
    };
    // Every account the flow saves: several pages (LinkedIn authors) chosen make one each.
    const ids: string[] = [];
    const store = admin.store.connections;
    const connections = {
      save: (...args: Parameters<typeof store.save>) => {
        const info = store.save(...args);
        if (!ids.includes(info.id)) ids.push(info.id);
        return info;
      },
      listForUser: (userId: string) => store.listForUser(userId),
    };
    const saved = await connectLivePlatform(input.platform, options, io, { connections, oauthApps: admin.store.oauthApps });
    const listings = admin.listConnections({ email: user.email });
    const listing = listings.find((c) => c.connection_id === saved.id);
    if (!listing) throw new CliError('error', `the ${input.platform} connection was not saved`, EXIT.error);
    const all = ids.flatMap((id) => listings.filter((c) => c.connection_id === id));
    // --json: the first account as before; `connected` lists them all when there are several.
    return all.length > 1 ? { ...listing, connected: all } : listing;
  });
}
