import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { OAuthFlowError, runLoopbackOAuth } from '../../src/oauth/loopback-oauth';
import { ManualClock } from '../../src/util/clock';

describe('runLoopbackOAuth', () => {
  it('returns the code once the provider redirects back with the right state', async () => {
    let seen = '';
    const result = await runLoopbackOAuth({
      authorizeUrl: ({ redirectUri, state }) => `https://provider.test/authorize?redirect_uri=${encodeURIComponent(redirectUri)}&state=${state}`,
      state: 'st-123',
      openBrowser: async (url) => {
        seen = url;
        const redirect = new URL(url).searchParams.get('redirect_uri')!;
        const res = await fetch(`${redirect}?code=abc%23_&state=st-123`);
        expect(res.status).toBe(200);
      },
    });
    expect(seen).toMatch(/^https:\/\/provider\.test\/authorize\?redirect_uri=http%3A%2F%2F127\.0\.0\.1%3A\d+%2Fcallback/);
    expect(result.code).toBe('abc');
    expect(result.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
  });

  it('ignores a redirect with a wrong state and keeps waiting for the right one', async () => {
    const result = await runLoopbackOAuth({
      authorizeUrl: ({ redirectUri }) => redirectUri,
      state: 'good',
      openBrowser: async (redirect) => {
        const forged = await fetch(`${redirect}?code=evil&state=bad`);
        expect(forged.status).toBe(400);
        await fetch(`${redirect}?code=fine&state=good`);
      },
    });
    expect(result.code).toBe('fine');
  });

  it('sends a PKCE S256 challenge and returns the matching verifier', async () => {
    let challenge = '';
    const result = await runLoopbackOAuth({
      authorizeUrl: (p) => {
        challenge = p.codeChallenge ?? '';
        expect(p.codeChallengeMethod).toBe('S256');
        return `${p.redirectUri}?code=c&state=${p.state}`;
      },
      pkce: true,
      openBrowser: async (url) => void (await fetch(url)),
    });
    expect(createHash('sha256').update(result.codeVerifier!).digest('base64url')).toBe(challenge);
  });

  it('rejects with the provider reason when the user refuses', async () => {
    const flow = runLoopbackOAuth({
      authorizeUrl: (p) => `${p.redirectUri}?error=access_denied&error_description=User%20denied&state=${p.state}`,
      openBrowser: async (url) => void (await fetch(url)),
    });
    await expect(flow).rejects.toMatchObject({ reason: 'denied', message: 'Authorization refused: User denied' });
  });

  it('gives up after the timeout on the injected clock', async () => {
    const clock = new ManualClock();
    const flow = runLoopbackOAuth({ authorizeUrl: (p) => p.redirectUri, openBrowser: () => {}, timeoutMs: 60_000, clock });
    const caught = flow.catch((e: unknown) => e);
    while (clock.pending === 0) await new Promise((r) => setImmediate(r));
    await clock.advance(60_000);
    const err = await caught;
    expect(err).toBeInstanceOf(OAuthFlowError);
    expect((err as OAuthFlowError).reason).toBe('timeout');
  });
});
