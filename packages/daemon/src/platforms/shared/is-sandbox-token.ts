/** Accepts the sandbox tokens the local admin issues (`sandbox_at_…`, `sandbox-…`) besides the simulator's own. */
export function isSandboxToken(token: string): boolean {
  return token.startsWith('sandbox-') || token.startsWith('sandbox_');
}

/**
 * The simulated account a sandbox token belongs to. The local admin issues each sandbox
 * connection `sandbox_at_<account>.<secret>` and `sandbox_rt_<account>.<secret>`, so every
 * connection is its own simulated account (own ids, username, rate windows, duplicate
 * memory) and a refresh keeps it. Tokens from before that form (`sandbox_at_<secret>`)
 * are each an account of their own; the simulator's test tokens (`sandbox-…`) are its
 * default account (null).
 */
export function sandboxAccountKey(token: string): string | null {
  const m = /^sandbox_(?:at|rt)_([^.]+)(?:\.|$)/.exec(token);
  return m ? m[1]! : null;
}
