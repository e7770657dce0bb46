export type { Share } from '../cluster/presence';

/**
 * Which daemon's share a due target is in, of `of` daemons: a hash of its account (the
 * connection, or user and platform for a target accepted before migration 200), so one
 * connection's targets go out from one daemon while the set of daemons holds.
 *
 * Every daemon holds every due target in its wheel; without shares each would try to
 * claim each, and all but one claim comes back empty. A daemon first takes only its
 * share and looks at the others' a moment later (publisher.ts), taking what is still
 * scheduled then: a daemon that died or is behind loses no target, it is only late by
 * that moment. Correctness never rests on this: the claim's compare-and-set does.
 */
export function shareOf(account: { userId: string; platform: string; connectionId: string | null }, of: number): number {
  const key = account.connectionId ?? `${account.userId}/${account.platform}`;
  // FNV-1a (32 bits): stable across processes and versions, unlike anything seeded.
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % of;
}
