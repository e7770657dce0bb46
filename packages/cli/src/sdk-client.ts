import type { ClientOptions } from '@socialpub/sdk';
import { SocialPub } from '@socialpub/sdk/client';

/**
 * The SDK client of every command, loaded with import() by Ctx.client(). A module of its
 * own so the bundle takes only the client from the SDK (a dynamic import of the package
 * would keep everything it exports, schemas included). Answers are not checked against the
 * schemas: the CLI is built with its daemon, and checking would load zod and build every
 * schema on each command's start (docs/architecture.md, "Start-up").
 */
export function createClient(options: Omit<ClientOptions, 'validateResponses'>): SocialPub {
  return new SocialPub({ ...options, validateResponses: false });
}
