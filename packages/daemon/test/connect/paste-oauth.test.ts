import { describe, expect, it } from 'vitest';
import { ConnectError } from '../../src/oauth/connect-error';
import type { ConnectIO } from '../../src/oauth/connect-io';
import { isLoopbackRedirect, OAuthFlowError } from '../../src/oauth/loopback-oauth';
import { authorizeByPaste } from '../../src/oauth/paste-oauth';

/** A user who opens the authorize URL and pastes back what `landed` makes of its state. */
function pastingUser(landed: (state: string) => string): ConnectIO & { opened: string[]; questions: string[] } {
  const opened: string[] = [];
  const questions: string[] = [];
  let state = '';
  return {
    opened,
    questions,
    openBrowser: (url) => {
      opened.push(url);
      state = new URL(url).searchParams.get('state') ?? '';
    },
    prompt: async (question) => {
      questions.push(question);
      return `  ${landed(state)}\n`;
    },
    choose: async () => {
      throw new Error('no choice expected');
    },
    print: () => {},
  };
}

const authorizeUrl = (state: string) => `https://provider.test/authorize?state=${state}`;

describe('authorizeByPaste', () => {
  it('opens the authorize URL with a fresh state and returns the pasted code and parameters', async () => {
    const io = pastingUser((state) => `https://app.example/callback?code=c0de&state=${state}&scopes=video.publish`);
    const result = await authorizeByPaste(io, authorizeUrl);
    expect(result.code).toBe('c0de');
    expect(result.params.scopes).toBe('video.publish');
    expect(io.opened).toHaveLength(1);
    expect(new URL(io.opened[0]!).searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(io.questions).toEqual(['After authorizing, paste the full URL the browser was sent to']);
  });

  it('uses a different state on every attempt', async () => {
    const io = pastingUser((state) => `https://app.example/callback?code=c&state=${state}`);
    await authorizeByPaste(io, authorizeUrl);
    await authorizeByPaste(io, authorizeUrl);
    const [a, b] = io.opened.map((u) => new URL(u).searchParams.get('state'));
    expect(a).not.toBe(b);
  });

  it("drops the '#_' Instagram appends to the code", async () => {
    const io = pastingUser((state) => `https://app.example/callback?code=abc%23_&state=${state}`);
    const result = await authorizeByPaste(io, authorizeUrl);
    expect(result.code).toBe('abc');
    expect(result.params.code).toBe('abc');
  });

  it('refuses an address from another sign-in attempt', async () => {
    const io = pastingUser(() => 'https://app.example/callback?code=c&state=someone-else');
    const err = await authorizeByPaste(io, authorizeUrl).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OAuthFlowError);
    expect((err as OAuthFlowError).reason).toBe('state_mismatch');
  });

  it("reports the platform's refusal with its description", async () => {
    const io = pastingUser((state) => `https://app.example/callback?error=access_denied&error_description=The+user+said+no&state=${state}`);
    const err = await authorizeByPaste(io, authorizeUrl).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OAuthFlowError);
    expect((err as OAuthFlowError).reason).toBe('denied');
    expect((err as Error).message).toBe('Authorization refused: The user said no');
  });

  it('refuses an address without a code', async () => {
    const io = pastingUser((state) => `https://app.example/callback?state=${state}`);
    const err = await authorizeByPaste(io, authorizeUrl).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OAuthFlowError);
    expect((err as OAuthFlowError).reason).toBe('no_code');
  });

  it('asks for the whole address when what was pasted is not a URL', async () => {
    const io = pastingUser(() => 'c0de');
    const err = await authorizeByPaste(io, authorizeUrl).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectError);
    expect((err as Error).message).toMatch(/paste the whole address/);
  });
});

describe('isLoopbackRedirect', () => {
  it('is true for plain http to 127.0.0.1 or localhost, with or without a port', () => {
    expect(isLoopbackRedirect(new URL('http://127.0.0.1:8765/callback'))).toBe(true);
    expect(isLoopbackRedirect(new URL('http://localhost/callback'))).toBe(true);
    expect(isLoopbackRedirect(new URL('http://127.0.0.1:0/callback'))).toBe(true);
  });

  it('is false for https, other hosts, and IPv6 loopback (the listener is on 127.0.0.1 only)', () => {
    expect(isLoopbackRedirect(new URL('https://localhost/callback'))).toBe(false);
    expect(isLoopbackRedirect(new URL('http://example.com/callback'))).toBe(false);
    expect(isLoopbackRedirect(new URL('http://[::1]:8765/callback'))).toBe(false);
  });
});
