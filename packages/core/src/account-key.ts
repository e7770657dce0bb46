import type { ErrorDetail } from './errors';
import { isContentType, isPlatform, PLATFORM_INFO, type Platform } from './platforms';

/**
 * An account's label: lower-case letters, digits, `-` and `_`, 1-32 characters, starting
 * with a letter or digit (it is written after the network in `twitter:brand`).
 */
export const ACCOUNT_LABEL_PATTERN = /^[a-z0-9][a-z0-9_-]{0,31}$/;

/** What a label must look like, for error messages. */
export const ACCOUNT_LABEL_RULE = 'a label is 1-32 lower-case letters, digits, - or _, starting with a letter or digit';

/** One of the user's accounts as a `platforms` entry names it: `twitter` (the default account) or `twitter:brand`. */
export interface AccountRef {
  platform: Platform;
  /** null: the network's default account. */
  label: string | null;
}

/** The network part of a `platforms` entry (`twitter` of `twitter:brand`). */
export function networkOf(key: string): string {
  const colon = key.indexOf(':');
  return colon < 0 ? key : key.slice(0, colon);
}

/** A `platforms` entry read as network[:label]; null when the network is unknown or the label malformed. */
export function parseAccountKey(key: string): AccountRef | null {
  const colon = key.indexOf(':');
  const platform = colon < 0 ? key : key.slice(0, colon);
  if (!isPlatform(platform)) return null;
  if (colon < 0) return { platform, label: null };
  const label = key.slice(colon + 1);
  return ACCOUNT_LABEL_PATTERN.test(label) ? { platform, label } : null;
}

/** The `platforms` entry of an account: the bare network for the default (label null). */
export function accountKey(platform: Platform, label: string | null): string {
  return label === null ? platform : `${platform}:${label}`;
}

/** The fields of a request (or a stored post) keyed by `platforms` entries. */
export interface AccountKeyedFields {
  platforms: readonly string[];
  platform_captions?: Record<string, string> | null;
  platform_types?: Partial<Record<string, readonly string[]>> | null;
  platform_options?: Record<string, unknown> | null;
  type_schedule?: Record<string, string> | null;
}

/**
 * The part of a request that names one label (null: the bare network names), with its
 * keys turned into network names: a request of the seed interface, one account per
 * network, that the timing and platform rules check unchanged.
 */
export interface AccountGroup<T extends AccountKeyedFields> {
  label: string | null;
  /** Each network of the group -> the `platforms` entry it came from. */
  keys: Map<Platform, string>;
  request: Omit<T, 'platforms'> & { platforms: Platform[] };
}

/** The default content type list of a `platforms` entry: its platform_types entry, else the network's default. */
function typesOfKey(key: string, platform: Platform, types: AccountKeyedFields['platform_types']): string[] {
  const listed = types?.[key];
  return listed && listed.length > 0 ? [...listed] : [PLATFORM_INFO[platform].defaultType];
}

function pick<V>(map: Record<string, V> | null | undefined, keys: Map<Platform, string>): Record<string, V> | null | undefined {
  if (map == null) return map;
  const out: Record<string, V> = {};
  for (const [platform, key] of keys) if (Object.prototype.hasOwnProperty.call(map, key)) out[platform] = map[key] as V;
  return out;
}

/**
 * Splits a request whose `platforms` name accounts (`twitter`, `twitter:brand`) into one
 * seed-interface request per label: the bare network names (the default accounts) in one,
 * each label in its own. Per-target fields follow their key; a `type_schedule` key that
 * names a content type goes to every group with a target of that type (or, matching none,
 * to the first, whose timing check then reports it); `thread` and `first_comment` are
 * keyed by network and apply to every account of it. The entries must have passed the
 * schema (each parses as an account key).
 */
export function splitByAccount<T extends AccountKeyedFields>(request: T): AccountGroup<T>[] {
  const groups = new Map<string | null, Map<Platform, string>>();
  for (const key of request.platforms) {
    const ref = parseAccountKey(key);
    if (!ref) continue;
    let keys = groups.get(ref.label);
    if (!keys) groups.set(ref.label, (keys = new Map()));
    keys.set(ref.platform, key);
  }
  const out: AccountGroup<T>[] = [];
  const typeKeys = Object.entries(request.type_schedule ?? {}).filter(([k]) => !k.includes('.') && !k.includes(':') && !isPlatform(k) && isContentType(k));
  const placed = new Set<string>();
  for (const [label, keys] of groups) {
    let schedule: Record<string, string> | null | undefined = request.type_schedule;
    if (schedule != null) {
      const own: Record<string, string> = {};
      for (const [k, v] of Object.entries(schedule)) {
        const dot = k.indexOf('.');
        const head = dot < 0 ? k : k.slice(0, dot);
        const ref = parseAccountKey(head);
        if (ref && ref.label === label && keys.get(ref.platform) === head) own[`${ref.platform}${dot < 0 ? '' : k.slice(dot)}`] = v;
      }
      for (const [k, v] of typeKeys) {
        if ([...keys].some(([platform, key]) => typesOfKey(key, platform, request.platform_types).includes(k))) {
          own[k] = v;
          placed.add(k);
        }
      }
      schedule = own;
    }
    out.push({
      label,
      keys,
      request: {
        ...request,
        platforms: [...keys.keys()],
        platform_captions: pick(request.platform_captions, keys),
        platform_types: pick(request.platform_types, keys),
        platform_options: pick(request.platform_options, keys),
        type_schedule: schedule,
      },
    });
  }
  // What matches no group goes to the first, so that its check names it.
  const first = out[0];
  if (first && request.type_schedule != null) {
    const own = first.request.type_schedule as Record<string, string>;
    for (const [k, v] of Object.entries(request.type_schedule)) {
      const dot = k.indexOf('.');
      const head = dot < 0 ? k : k.slice(0, dot);
      const ref = parseAccountKey(head);
      const inSomeGroup = ref ? groups.get(ref.label)?.get(ref.platform) === head : placed.has(k);
      if (!inSomeGroup) own[k] = v;
    }
  }
  return out;
}

/** An issue found in a group's request, with its paths and `platform` naming the `platforms` entry again. */
export function issueOfGroup(detail: ErrorDetail, keys: Map<Platform, string>): ErrorDetail {
  const segments = detail.path.split('.');
  const path = segments.map((s) => (isPlatform(s) ? (keys.get(s) ?? s) : s)).join('.');
  const platform = typeof detail.platform === 'string' && isPlatform(detail.platform) ? keys.get(detail.platform) : undefined;
  return { ...detail, path, ...(platform !== undefined && platform !== detail.platform ? { account: platform } : {}) };
}

/**
 * An account as people read it (the CLI's and MCP's lines): the network alone for the
 * account labelled `default` (what every connection was before labels) or for none known,
 * else `network:label`, as `platforms` names it.
 */
export function accountShown(platform: string, label: string | null | undefined): string {
  return label == null || label === 'default' ? platform : `${platform}:${label}`;
}

/** A target as people read it: `twitter.tweet`, `twitter:brand.tweet` (two accounts of one network tell apart). */
export function targetShown(t: { platform: string; label?: string | null | undefined; type: string }): string {
  return `${accountShown(t.platform, t.label)}.${t.type}`;
}
