import type { SecretBox } from '../util/secrets';
import type { DB } from './database';

/** An OAuth client the daemon registered with a server of a federated platform (a Mastodon server's app). */
export interface OAuthApp {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  scopes: string;
  createdAt: number;
}

export type OAuthAppsRepository = ReturnType<typeof createOAuthAppsRepository>;

/**
 * The apps socialpub registered per server (Mastodon's POST /api/v1/apps), kept so that
 * connecting again to the same server reuses its app instead of registering another.
 * Kept in settings (scope global, key `oauth_app:<platform>:<origin>`), sealed like tokens.
 */
export function createOAuthAppsRepository(db: DB, box: SecretBox) {
  const get = db.prepare<[string], { value: string }>("SELECT value FROM settings WHERE scope = 'global' AND key = ?");
  const set = db.prepare("INSERT INTO settings (scope, key, value) VALUES ('global', ?, ?) ON CONFLICT (scope, key) DO UPDATE SET value = excluded.value");
  const key = (platform: string, origin: string) => `oauth_app:${platform}:${origin}`;
  return {
    get(platform: string, origin: string): OAuthApp | null {
      const r = get.get(key(platform, origin));
      if (!r) return null;
      return box.openJson<OAuthApp>(JSON.parse(r.value) as string);
    },
    save(platform: string, origin: string, app: OAuthApp): void {
      set.run(key(platform, origin), JSON.stringify(box.sealJson(app)));
    },
  };
}
