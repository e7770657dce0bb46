import type { Store } from '../store/store';

const KEY = 'timezone';

/** The user's `timezone` setting (an IANA name), or null: none set, times are UTC. */
export function userZone(store: Store, userId: string): string | null {
  return store.settings.get<string>(userId, KEY);
}

export function setUserZone(store: Store, userId: string, zone: string | null): void {
  if (zone === null) store.settings.delete(userId, KEY);
  else store.settings.set(userId, KEY, zone);
}
