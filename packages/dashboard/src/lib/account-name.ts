import { platformName, typeName } from './names';

/**
 * How the page names an account (docs/dashboard.md): the network's name for the account
 * labelled `default` (the only one most people have), else the name with the label: "X (brand)".
 */
export function accountName(t: { platform: string; label?: string | null | undefined }): string {
  return t.label == null || t.label === 'default' ? platformName(t.platform) : `${platformName(t.platform)} (${t.label})`;
}

/** A `platforms` entry split into its network and label: `twitter:brand` -> twitter, brand; a bare `twitter` (the default account) has no label. */
export function splitEntry(key: string): { platform: string; label: string | undefined } {
  const colon = key.indexOf(':');
  return colon < 0 ? { platform: key, label: undefined } : { platform: key.slice(0, colon), label: key.slice(colon + 1) };
}

/** A `platforms` entry in words: "X" for `twitter`, "X (brand)" for `twitter:brand`. */
export function entryName(key: string): string {
  return accountName(splitEntry(key));
}

/** A target in words with its account: "X (brand) post"; "Instagram story" for a default account. */
export function accountTargetName(t: { platform: string; type: string; label?: string | null | undefined }): string {
  return `${accountName(t)} ${typeName(t.type)}`;
}

/** A key unique among a post's targets: two accounts of a platform may share a type. */
export const targetKey = (t: { platform: string; type: string; connection_id?: string | null | undefined }) => `${t.connection_id ?? t.platform}.${t.platform}.${t.type}`;
