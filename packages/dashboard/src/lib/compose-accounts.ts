import type { Platform } from '@socialpub/core/platforms';
import { accountName } from './account-name';
import { platformName } from './names';
import type { Connection } from './types';

/** An account Compose offers: its `platforms` entry (the bare network for its default account, `twitter:brand` for another) and its name ("X", "X (brand)"). */
export interface ComposeAccount {
  key: string;
  platform: Platform;
  /** For the previews: the account's label, none for the platform's default account. */
  label: string | undefined;
  name: string;
}

/**
 * The accounts Compose offers, per connected platform (in `connected`'s order) its active
 * accounts, the default first (named by the bare network in `platforms`), then the others by
 * label. Before the connections are read (`list` null), each platform's default account.
 */
export function composeAccounts(list: readonly Connection[] | null, connected: readonly Platform[]): ComposeAccount[] {
  return connected.flatMap((platform) => {
    const mine = (list ?? []).filter((c) => c.platform === platform && c.status === 'active');
    if (!mine.length) return [{ key: platform, platform, label: undefined, name: platformName(platform) }];
    const sorted = [...mine].sort((a, b) => Number(b.is_default ?? false) - Number(a.is_default ?? false) || (a.label ?? '').localeCompare(b.label ?? ''));
    return sorted.map((c, i) => {
      const isDefault = i === 0 && (c.is_default ?? true);
      return { key: isDefault ? platform : `${platform}:${c.label ?? 'default'}`, platform, label: isDefault ? undefined : c.label, name: accountName(c) };
    });
  });
}
