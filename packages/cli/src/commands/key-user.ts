import type { SocialPub } from '@socialpub/sdk';
import { UsageError } from '../errors';

/**
 * The user the key speaks for on the daemon the CLI is pointed at (POST /auth/validate):
 * through the API a read answers for that user alone, so `--user` may name only them (the
 * other users of a daemon are its data dir's to list, with --data-dir on its machine).
 */
export async function keyUser(client: SocialPub, user: string | undefined): Promise<{ id: string; email: string }> {
  const who = (await client.auth.validate()).user;
  if (user !== undefined && user.trim().toLowerCase() !== who.email.toLowerCase()) {
    throw new UsageError(`--user ${user}: the daemon at ${client.baseUrl} answers for the key's user (${who.email}) only`, {
      hint: "name that user's key, or run the command on the daemon's machine with --data-dir",
    });
  }
  return who;
}
