import type { ConnectionListing } from '@socialpub/daemon';
import type { Platform } from '@socialpub/core';
import type { Ctx } from '../context';
import { CliError, EXIT } from '../errors';

export interface LiveConnectInput {
  dataDir: string;
  platform: Platform;
  email?: string | undefined;
  clientId: string;
  clientSecret: string;
  page?: string | undefined;
  accessToken?: string | undefined;
  accessSecret?: string | undefined;
  browser: boolean;
}

/**
 * Connects a real account through the platform's OAuth flow. The flows themselves
 * (authorize URL, loopback redirect, token exchange, page choice) live in the daemon
 * package's connect/ folder, owned by the platform adapters; this is where the CLI hands
 * them its browser opener and its prompts.
 */
export async function connectLive(_ctx: Ctx, input: LiveConnectInput): Promise<ConnectionListing> {
  throw new CliError('not_available', `connecting a live ${input.platform} account is not available in this build`, EXIT.error, {
    hint: `use a simulated account meanwhile: socialpub connect ${input.platform} --sandbox`,
  });
}
