import { platformName, typeName } from './names';

/**
 * How the page names an account (docs/dashboard.md): the network's name for the account
 * labelled `default` (the only one most people have), else the name with the label: "X (brand)".
 */
export function accountName(t: { platform: string; label?: string | null | undefined }): string {
  return t.label == null || t.label === 'default' ? platformName(t.platform) : `${platformName(t.platform)} (${t.label})`;
}

/** A target in words with its account: "X (brand) post"; "Instagram story" for a default account. */
export function accountTargetName(t: { platform: string; type: string; label?: string | null | undefined }): string {
  return `${accountName(t)} ${typeName(t.type)}`;
}

/** A key unique among a post's targets: two accounts of a platform may share a type. */
export const targetKey = (t: { platform: string; type: string; connection_id?: string | null | undefined }) => `${t.connection_id ?? t.platform}.${t.platform}.${t.type}`;
