import type { SettingReader } from '../platform-module';
import { LINKEDIN_VERSION_SETTING } from './api-version';

declare module '../platform-module' {
  interface PlatformsConfig {
    /** Pins LinkedIn's API version (`YYYYMM`, SOCIALPUB_LINKEDIN_VERSION); default: worked out from the date, stepping forward when LinkedIn retires it. */
    linkedinVersion?: string;
  }
}

/** SOCIALPUB_LINKEDIN_VERSION: `YYYYMM` (or LinkedIn's `YYYYMM.RR`); anything else is refused at start, naming the setting. */
export function linkedinSettings(read: SettingReader) {
  const value = read(LINKEDIN_VERSION_SETTING);
  if (value !== undefined && !/^20[0-9]{2}(0[1-9]|1[0-2])(\.[0-9]{2})?$/.test(value)) throw new Error(`${LINKEDIN_VERSION_SETTING} must be a LinkedIn API version such as 202609 (YYYYMM), not "${value}"`);
  return { linkedinVersion: value };
}
