import type { PlatformAdapter, PublishContext } from '../../src/platforms/adapter';
import type { Platform } from '@socialpub/core';
import { describe, expect, it } from 'vitest';
import { createCredentialsService } from '../../src/store/credentials';
import { ManualClock } from '../../src/util/clock';
import { SecretBox } from '../../src/util/secrets';
import { openTestDatabase } from '../support/store-dialects';
import { seedUser, T0, useWorlds } from '../scheduler/harness';

const world = useWorlds();

/** An adapter of `platform` that records the access token each publish was given. */
function recording(platform: Platform, tokens: string[]): PlatformAdapter {
  return {
    platform,
    validate: () => [],
    publish: async (ctx: PublishContext) => {
      tokens.push(`${platform}:${ctx.credentials.secrets.access_token}`);
      return { postId: `${platform}-${tokens.length}`, postUrl: null };
    },
    reconcile: async () => ({ state: 'unknown', reason: 'not used' }),
  };
}

describe('the credentials an attempt publishes with', () => {
  it("are its claim's read of the account (one statement for the batch, none a target), opened from their sealed row, and a refresh before a claim is seen", async () => {
    const clock = new ManualClock(T0);
    const db = openTestDatabase(':memory:');
    seedUser(db, T0);
    const credentials = createCredentialsService(db, new SecretBox(Buffer.alloc(32, 1)), clock);
    let readsOne = 0;
    const connections = {
      ...credentials,
      credentialsFor: (...args: Parameters<typeof credentials.credentialsFor>) => {
        readsOne++;
        return credentials.credentialsFor(...args);
      },
    };
    credentials.saveTokens('con_user-1_twitter', { secrets: { access_token: 'x-1' } });
    credentials.saveTokens('con_user-1_threads', { secrets: { access_token: 't-1' } });
    const tokens: string[] = [];
    const w = world({
      db,
      clock,
      publisher: { connections, adapters: new Map<Platform, PlatformAdapter>([['twitter', recording('twitter', tokens)], ['threads', recording('threads', tokens)]]) },
    });
    const first = [w.add({ due: T0 + 10 }), w.add({ due: T0 + 10, platform: 'threads' })];
    const later = w.add({ due: T0 + 20 });
    await w.start();
    // Refreshed (the token refresher, or a reconnect) before the claims.
    credentials.saveTokens('con_user-1_twitter', { secrets: { access_token: 'x-2' } });
    await w.advance(10);
    expect(first.map((id) => w.row(id).status)).toEqual(['published', 'published']);
    expect(tokens.sort()).toEqual(['threads:t-1', 'twitter:x-2']);
    // Refreshed again between two claims: the next attempt has the new token.
    credentials.saveTokens('con_user-1_twitter', { secrets: { access_token: 'x-3' } });
    await w.advance(10);
    expect(w.row(later).status).toBe('published');
    expect(tokens).toContain('twitter:x-3');
    expect(readsOne).toBe(0);
    // At rest, still sealed.
    const stored = db.prepare("SELECT secrets_enc FROM connections WHERE id = 'con_user-1_twitter'").pluck().get() as string;
    expect(stored).toMatch(/^v1\./);
    expect(stored).not.toContain('x-3');
  });

  it('are not those of an account revoked before the claim: the attempt fails as not connected, and nothing is sent', async () => {
    const clock = new ManualClock(T0);
    const db = openTestDatabase(':memory:');
    seedUser(db, T0);
    const credentials = createCredentialsService(db, new SecretBox(Buffer.alloc(32, 1)), clock);
    credentials.saveTokens('con_user-1_twitter', { secrets: { access_token: 'x-1' } });
    const tokens: string[] = [];
    const w = world({ db, clock, publisher: { connections: credentials, adapters: new Map<Platform, PlatformAdapter>([['twitter', recording('twitter', tokens)]]) } });
    const id = w.add({ due: T0 + 10 });
    await w.start();
    credentials.markExpired('con_user-1_twitter', 'token revoked');
    await w.advance(10);
    expect(w.row(id)).toMatchObject({ status: 'failed', error_code: 'auth_expired' });
    expect(tokens).toEqual([]);
  });
});
