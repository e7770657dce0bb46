import { createHash, timingSafeEqual } from 'node:crypto';
import { randomToken } from '../../util/ids';

/**
 * A sandbox connection's own password (issue 35): what the network's own sign-in takes for
 * that connection's simulated account (Bluesky's createSession), so nobody but the
 * connection's owner can sign into it. The password is sealed with the connection's
 * secrets (shown to its owner); the simulators, which never open secrets, compare against
 * its sha256, kept in the connection's meta under SANDBOX_PASSWORD_DIGEST.
 */
export const SANDBOX_PASSWORD_SECRET = 'sandbox_password';

/** The connection meta key holding the password's sha256 (hex). */
export const SANDBOX_PASSWORD_DIGEST = 'sandbox_password_sha256';

/** 28 characters of [0-9a-z] (~144 bits), in four groups for reading aloud: `sbx-xxxxxxx-xxxxxxx-xxxxxxx-xxxxxxx`. */
export function newSandboxPassword(): string {
  const raw = randomToken(28);
  return `sbx-${raw.slice(0, 7)}-${raw.slice(7, 14)}-${raw.slice(14, 21)}-${raw.slice(21)}`;
}

export function sandboxPasswordDigest(password: string): string {
  return createHash('sha256').update(password).digest('hex');
}

/** Whether `password` is the one whose digest is stored (false when none is: a connection from before passwords). */
export function sandboxPasswordMatches(digest: string | null | undefined, password: string): boolean {
  if (typeof digest !== 'string' || digest.length !== 64) return false;
  return timingSafeEqual(Buffer.from(digest, 'hex'), createHash('sha256').update(password).digest());
}
