import { ACCOUNT_LABEL_PATTERN, ACCOUNT_LABEL_RULE, parseAccountKey } from '@socialpub/core';
import type { ConnectionInfo, ConnectionsRepository } from '../store/connections';

/** What may change of an account: its label, and whether it is its network's default (only `true`: another account takes the default from it). */
export interface AccountChange {
  label?: string;
  default?: true;
}

/** Why a change was refused: the label is malformed, or another account of the network has it. */
export type AccountChangeRefusal = { field: 'label' | 'default'; message: string; conflict: boolean };

/** The label a connect names, checked: null when none was named; a message when malformed. */
export function labelOf(value: unknown): { ok: true; label: string | null } | { ok: false; message: string } {
  if (value === undefined || value === null) return { ok: true, label: null };
  if (typeof value !== 'string' || !ACCOUNT_LABEL_PATTERN.test(value)) return { ok: false, message: ACCOUNT_LABEL_RULE };
  return { ok: true, label: value };
}

/**
 * One of the user's connections as a person names it: its id (`con_…`), a network (its
 * default account) or `network:label`. Null when the user has none such.
 */
export function findAccount(connections: Pick<ConnectionsRepository, 'getById' | 'find'>, userId: string, name: string): ConnectionInfo | null {
  if (name.startsWith('con_')) {
    const found = connections.getById(name);
    return found && found.userId === userId ? found : null;
  }
  const ref = parseAccountKey(name);
  return ref ? connections.find(userId, ref.platform, ref.label) : null;
}

/** Renames an account and/or makes it its network's default; a refusal says why (nothing changed then). */
export function changeAccount(connections: Pick<ConnectionsRepository, 'rename' | 'setDefault' | 'getById'>, conn: ConnectionInfo, change: AccountChange): ConnectionInfo | AccountChangeRefusal {
  if (change.label !== undefined) {
    const checked = labelOf(change.label);
    if (!checked.ok) return { field: 'label', message: checked.message, conflict: false };
    if (!connections.rename(conn.id, change.label)) {
      return { field: 'label', message: `you already have a ${conn.platform} account labelled ${change.label}`, conflict: true };
    }
  }
  if (change.default === true) connections.setDefault(conn.id);
  return connections.getById(conn.id) as ConnectionInfo;
}

export const isRefusal = (r: ConnectionInfo | AccountChangeRefusal): r is AccountChangeRefusal => 'conflict' in r;
