import type { ApiVersion } from '@socialpub/core';
import { formatInstant } from '@socialpub/core';

/**
 * LinkedIn's versioned REST API (`Linkedin-Version: YYYYMM`): each monthly version is
 * served for about a year, then answers 426 NONEXISTENT_VERSION ("Requested version
 * 202411 is not active"). Peers that hard-coded one stopped posting the day it retired
 * (Postiz #2005, n8n #28559, Composio #3113). Here the version is worked out from the date,
 * steps forward when LinkedIn retires it, and can be pinned by a setting.
 */

/** The environment variable that pins the version (PlatformsConfig.linkedinVersion). */
export const LINKEDIN_VERSION_SETTING = 'SOCIALPUB_LINKEDIN_VERSION';

/** `YYYYMM`, optionally with LinkedIn's `.RR` revision (e.g. `202509.01`). */
export const LINKEDIN_VERSION_FORMAT = /^(20[0-9]{2})(0[1-9]|1[0-2])(\.[0-9]{2})?$/;

/** How many months back the default version lies: released for certain, and active for most of a year more. */
export const DEFAULT_MONTHS_BACK = 2;

/** The version `monthsBack` calendar months before the month of `at` (UTC). */
export function monthVersion(at: number, monthsBack: number): string {
  const d = new Date(at);
  const month = d.getUTCFullYear() * 12 + d.getUTCMonth() - monthsBack;
  return `${Math.floor(month / 12)}${String((month % 12) + 1).padStart(2, '0')}`;
}

/** The default version for a date: a recent monthly version LinkedIn has released. */
export function defaultVersion(now: number): string {
  return monthVersion(now, DEFAULT_MONTHS_BACK);
}

const monthOf = (version: string) => Number(version.slice(0, 6));

/**
 * The versions to try, newest first, after `retired` was refused: this month's down to
 * the month after `retired` (a version newer than the retired one; the first LinkedIn
 * accepts is the newest active one).
 */
export function newerCandidates(retired: string, now: number): string[] {
  const out: string[] = [];
  for (let back = 0; back < 24; back++) {
    const v = monthVersion(now, back);
    if (monthOf(v) <= monthOf(retired)) break;
    out.push(v);
  }
  return out;
}

/** A pinned version LinkedIn no longer serves: the post fails with the setting named. */
export class PinnedVersionRetiredError extends Error {
  constructor(readonly version: string) {
    super(
      `LinkedIn no longer serves API version ${version} (426 NONEXISTENT_VERSION), which the setting ${LINKEDIN_VERSION_SETTING} pins; ` +
        `set ${LINKEDIN_VERSION_SETTING} to an active version (YYYYMM, within the last year) or unset it to follow LinkedIn's versions automatically`,
    );
    this.name = 'PinnedVersionRetiredError';
  }
}

/** No version newer than the retired one is active (LinkedIn answered 426 to each). */
export class NoActiveVersionError extends Error {
  constructor(retired: string, tried: string[]) {
    super(`LinkedIn retired API version ${retired} and answered 426 to every newer one tried (${tried.join(', ') || 'none newer exists yet'}); pin an active one with ${LINKEDIN_VERSION_SETTING}`);
    this.name = 'NoActiveVersionError';
  }
}

/**
 * The version the daemon sends, shared by the adapter, the take-downs and GET /platforms:
 * the pinned one, else the newer of the date's default and the version it stepped
 * forward to (kept for the daemon's life; after a restart the default is tried again and
 * one 426 finds the active version anew).
 */
export class LinkedinVersions {
  #stepped: { version: string; previous: string; at: number } | null = null;

  constructor(readonly pinned: string | null) {}

  current(now: number): string {
    if (this.pinned) return this.pinned;
    const fallback = defaultVersion(now);
    return this.#stepped && monthOf(this.#stepped.version) > monthOf(fallback) ? this.#stepped.version : fallback;
  }

  /** Remembers that `previous` retired and `version` answered. */
  stepForward(previous: string, version: string, at: number): void {
    if (!this.#stepped || monthOf(version) >= monthOf(this.#stepped.version)) this.#stepped = { version, previous, at };
  }

  /** What GET /platforms shows. */
  info(now: number): ApiVersion {
    const version = this.current(now);
    const stepped = this.#stepped && this.#stepped.version === version && !this.pinned ? this.#stepped : null;
    return {
      version,
      source: this.pinned ? 'pinned' : stepped ? 'stepped_forward' : 'default',
      setting: LINKEDIN_VERSION_SETTING,
      previous: stepped?.previous ?? null,
      changed_at: stepped ? formatInstant(stepped.at) : null,
    };
  }
}

/** One memory per daemon configuration (the adapter, the remover and GET /platforms share the daemon's PlatformsConfig object). */
const byConfig = new WeakMap<object, LinkedinVersions>();

export function linkedinVersions(config: { linkedinVersion?: string }): LinkedinVersions {
  let v = byConfig.get(config);
  if (!v) {
    v = new LinkedinVersions(config.linkedinVersion ?? null);
    byConfig.set(config, v);
  }
  return v;
}
