import type { SettingReader } from '../platform-module';

declare module '../platform-module' {
  interface PlatformsConfig {
    /** Graph API version for the Meta platforms (SOCIALPUB_GRAPH_VERSION; default v25.0). */
    graphVersion?: string;
  }
}

/** The settings Instagram and Facebook share (Threads has its own API host and version). */
export const metaSettings = (read: SettingReader) => ({ graphVersion: read('SOCIALPUB_GRAPH_VERSION') });
