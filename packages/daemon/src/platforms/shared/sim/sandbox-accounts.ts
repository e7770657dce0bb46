import { sandboxAccountKey } from '../is-sandbox-token';
import type { SimState } from './sim-state';

/**
 * The simulated account a sandbox token acts as: its connection's own (one per sandbox
 * account key, see sandboxAccountKey), made on first use by `create` from the next number
 * of the `counter` sequence (starting at `first`) and remembered in `state` (kind
 * `sandbox-accounts`), so it is the same after a restart; the simulator's own test tokens
 * (`sandbox-…`) act as `fallback`.
 */
export function sandboxAccounts(state: SimState, counter: string, first: bigint, fallback: string, create: (n: bigint) => string): (token: string) => string {
  const byKey = state.map<string>('sandbox-accounts');
  const next = state.counter(counter, first);
  return (token) => {
    const key = sandboxAccountKey(token);
    if (key === null) return fallback;
    const known = byKey.get(key);
    if (known) return known;
    // The account and the key naming it land together: a restart between them would make the connection a second account.
    return state.atomically(() => {
      const id = create(next());
      byKey.set(key, id);
      return id;
    });
  };
}
