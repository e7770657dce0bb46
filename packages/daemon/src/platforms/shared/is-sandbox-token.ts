/** Accepts the sandbox tokens the local admin issues (`sandbox_at_…`, `sandbox-…`) besides the simulator's own. */
export function isSandboxToken(token: string): boolean {
  return token.startsWith('sandbox-') || token.startsWith('sandbox_');
}
