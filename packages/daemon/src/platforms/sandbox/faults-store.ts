import { SandboxFaultsSchema, type SandboxFaults } from '@socialpub/core';
import type { SettingsRepository } from '../../store/settings';

/** A user's own sandbox faults: settings, scope the user's id (PUT /sandbox/faults). */
export const SANDBOX_FAULTS_KEY = 'sandbox_faults';

/**
 * The faults a user set for their sandbox connections ({} when none). Read on every
 * simulated call of theirs (one indexed row), so a change applies to the next call, also
 * in the simulators' own process, which reads the daemon's database read-only for it.
 */
export function readUserSandboxFaults(settings: Pick<SettingsRepository, 'get'>, userId: string): SandboxFaults {
  const value = settings.get<unknown>(userId, SANDBOX_FAULTS_KEY);
  if (value === null) return {};
  // Written only through the schema; anything else (a hand edit) counts as none rather than failing calls.
  const parsed = SandboxFaultsSchema.safeParse(value);
  return parsed.success ? parsed.data : {};
}
