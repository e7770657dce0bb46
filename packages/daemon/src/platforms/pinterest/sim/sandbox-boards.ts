import { createHash } from 'node:crypto';

/**
 * The two boards of a sandbox connection's simulated Pinterest account, derived from its
 * account key (the `<key>` of `sandbox_at_<key>.…`), so the daemon can list them for the
 * connection (GET /platforms) before the simulator ever saw the account. Ids are digits
 * like Pinterest's.
 */
export function sandboxBoards(accountKey: string): Array<{ id: string; name: string }> {
  return ['Inspiration', 'Products'].map((name, i) => {
    const digest = createHash('sha256').update(`pinterest-board:${accountKey}:${i}`).digest();
    return { id: `9${(digest.readBigUInt64BE(0) % 10n ** 17n).toString().padStart(17, '0')}`, name };
  });
}
