import { examples, type Kit } from '../command-kit';
import type { Program } from '../program';

const authValidate = async (kit: Kit) => (await import('./auth/validate')).authValidate(kit.ctx());

/** `socialpub auth validate`: the key in use and whose it is. */
export function defineAuth(program: Program, kit: Kit): void {
  const auth = examples(program.command('auth').description('the API key in use'), ['socialpub auth validate']);
  examples(auth.command('validate').description('check the key and show whose it is').action(() => authValidate(kit)), ['socialpub auth validate']);
}

/** `socialpub whoami`: the same as `auth validate`. */
export function defineWhoami(program: Program, kit: Kit): void {
  examples(program.command('whoami').description('same as `auth validate`').action(() => authValidate(kit)), ['socialpub whoami --json']);
}
