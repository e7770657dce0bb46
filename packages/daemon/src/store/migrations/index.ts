import { migration001 } from './001-init';

/**
 * Numbered migrations, applied in order at start, each in its own transaction.
 * Append only: never edit a migration that has shipped; add the next number.
 */
export const MIGRATIONS: readonly { version: number; name: string; sql: string }[] = [
  { version: 1, name: 'init', sql: migration001 },
];
