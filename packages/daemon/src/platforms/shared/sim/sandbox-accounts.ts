import { sandboxAccountKey } from '../is-sandbox-token';
import type { SimState } from './sim-state';

/** How a simulator makes a sandbox connection's account: its id from the sequence's next number, then its records. */
export interface SandboxAccountMaker {
  /** The new account's id, from `n` (the next number of the sequence). */
  id(n: bigint): string;
  /** Writes the account's records (called only when this id is the connection's: see sandboxAccounts). */
  make(id: string, n: bigint): void;
}

/**
 * The simulated account a sandbox token acts as: its connection's own (one per sandbox
 * account key, see sandboxAccountKey), made on first use from the next number of the
 * `counter` sequence (starting at `first`) and remembered in `state` (kind
 * `sandbox-accounts`), so it is the same after a restart; the simulator's own test tokens
 * (`sandbox-…`) act as `fallback`. The key is claimed before the account is made
 * (SimMap.claim): when two daemons' simulators over one PostgreSQL database meet a new
 * connection at the same moment, the first claim wins, the other makes nothing and acts as
 * the winner's account.
 */
export function sandboxAccounts(state: SimState, counter: string, first: bigint, fallback: string, account: SandboxAccountMaker): (token: string) => string {
  const byKey = state.map<string>('sandbox-accounts');
  const next = state.counter(counter, first);
  return (token) => {
    const key = sandboxAccountKey(token);
    if (key === null) return fallback;
    const known = byKey.get(key);
    if (known) return known;
    // The account and the key naming it land together: a restart between them would make the connection a second account.
    return state.atomically(() => {
      const n = next();
      const id = account.id(n);
      const held = byKey.claim(key, id);
      if (held === id) account.make(id, n);
      return held;
    });
  };
}
