import { Hono } from 'hono';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { connectLive } from '../../../src/connect/index';
import { linkedin } from '../../../src/platforms/linkedin/index';
import { LinkedinVersions, monthVersion } from '../../../src/platforms/linkedin/api-version';
import { connectLinkedin, LINKEDIN_SCOPES } from '../../../src/platforms/linkedin/connect';
import { linkedinTokenRefresher } from '../../../src/platforms/linkedin/refresh-token';
import { createLinkedinSimulator, LINKEDIN_API_HOST, LINKEDIN_WWW_HOST, type LinkedinSimulator } from '../../../src/platforms/linkedin/sim/simulator';
import { ManualClock } from '../../../src/util/clock';
import { fakeConnections, fakeIO, serveSimulators, type SimServer } from '../shared/harness';

let clock: ManualClock;
let sim: LinkedinSimulator;
let server: SimServer;
/** The Linkedin-Version of every call to api.linkedin.com. */
let versions: string[];
const baseUrl = (h: string) => server.baseUrl(h);
const deps = () => ({ connections: fakeConnections(), clock, baseUrl, versions: new LinkedinVersions(null) });

beforeEach(async () => {
  clock = new ManualClock();
  sim = createLinkedinSimulator({ clock });
  versions = [];
  const api = new Hono();
  api.use('*', async (c, next) => {
    const v = c.req.header('linkedin-version');
    if (v !== undefined) versions.push(v);
    await next();
  });
  api.route('/', sim.api);
  server = await serveSimulators([
    { host: LINKEDIN_API_HOST, app: api },
    { host: LINKEDIN_WWW_HOST, app: sim.www },
  ]);
});
afterEach(() => server.close());

describe('socialpub connect linkedin', () => {
  it('runs the 3-legged flow through a loopback redirect and offers the member and the organizations they administer', async () => {
    const io = fakeIO(['86client', 'sekrit']);
    const asked: Array<{ question: string; labels: string[] }> = [];
    io.choose = async <T,>(question: string, choices: { label: string; value: T }[]) => {
      asked.push({ question, labels: choices.map((c) => c.label) });
      return choices[2]!.value;
    };
    const d = deps();
    await connectLinkedin({ userId: 'usr_1', redirectUri: 'http://127.0.0.1:0/callback' }, io, d);

    const authorize = new URL(io.opened[0]!);
    expect(authorize.pathname).toBe(`/${LINKEDIN_WWW_HOST}/oauth/v2/authorization`);
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({ response_type: 'code', client_id: '86client', scope: LINKEDIN_SCOPES.join(' ') });
    // LinkedIn's standard flow: client secret in the form, no PKCE.
    expect(authorize.searchParams.has('code_challenge')).toBe(false);
    const exchange = sim.log.to('POST', '/oauth/v2/accessToken')[0]!;
    expect(exchange.body).toMatchObject({ grant_type: 'authorization_code', client_id: '86client', client_secret: '…', redirect_uri: authorize.searchParams.get('redirect_uri') });

    const [o1, o2] = sim.defaultMember.organizations.map((id) => sim.organization(id)!);
    expect(asked).toEqual([{ question: 'Post to LinkedIn as?', labels: ['Sandbox Member (yourself)', `${o1!.name} (${o1!.id})`, `${o2!.name} (${o2!.id})`] }]);
    const { input, platform } = d.connections.saved[0]!;
    expect(platform).toBe('linkedin');
    expect(input).toMatchObject({
      mode: 'live',
      accountId: sim.defaultMember.sub,
      accountName: 'Sandbox Member',
      pageId: `urn:li:organization:${o2!.id}`,
      pageName: o2!.name,
      tokenExpiresAt: clock.now() + 60 * 86_400_000,
      refreshExpiresAt: clock.now() + 365 * 86_400_000,
      meta: { person_urn: `urn:li:person:${sim.defaultMember.sub}`, organizations: [{ urn: `urn:li:organization:${o1!.id}`, name: o1!.name }, { urn: `urn:li:organization:${o2!.id}`, name: o2!.name }] },
    });
    expect(input.secrets).toMatchObject({ client_id: '86client', client_secret: 'sekrit', access_token: expect.stringMatching(/^AQV/), refresh_token: expect.stringMatching(/^AQX/) });
    expect(io.printed.at(-1)).toBe(`Connected LinkedIn organization ${o2!.name} (as Sandbox Member).`);
  });

  it('makes one account per author chosen where several can be asked (the member and an organization), the second under a label of its own', async () => {
    const io = fakeIO(['86client', 'sekrit']);
    const asked: string[] = [];
    const withMany = {
      ...io,
      chooseMany: async <T,>(question: string, choices: { label: string; value: T }[]) => {
        asked.push(question);
        return [choices[0]!.value, choices[1]!.value];
      },
    };
    const saved: Array<{ label: string | null | undefined; pageId: string | null | undefined }> = [];
    const connections = {
      save: (userId: string, platform: 'linkedin', input: { pageId?: string | null }, label?: string | null) => {
        saved.push({ label, pageId: input.pageId });
        return { ...fakeConnections().save(userId, 'twitter', input as never), platform, label: label ?? 'brand', pageId: input.pageId ?? null };
      },
      // The user already has a LinkedIn account of another organization labelled as this one's name would be: the new label avoids it.
      listForUser: () => [{ platform: 'linkedin', label: 'sandbox-member-studio', pageId: 'urn:li:organization:999', isDefault: false }],
    };
    await connectLive('linkedin', { userId: 'usr_1', redirectUri: 'http://127.0.0.1:0/callback', label: 'brand' }, withMany, { connections: connections as never, clock, baseUrl });
    const [o1] = sim.defaultMember.organizations.map((id) => sim.organization(id)!);
    expect(asked).toEqual(['Post to LinkedIn as? (each one becomes an account)']);
    expect(o1!.name).toBe('Sandbox Member Studio');
    expect(saved).toEqual([
      // The member, under the label asked for (connectLive's --label).
      { label: 'brand', pageId: null },
      // The organization under its name, made unique.
      { label: 'sandbox-member-studio-2', pageId: `urn:li:organization:${o1!.id}` },
    ]);
    expect(io.printed.filter((l) => l.startsWith('Connected LinkedIn'))).toHaveLength(2);
  });

  it('takes the author from --organization (an id, a URN or member), and refuses one the member does not administer', async () => {
    const org = sim.defaultMember.organizations[0]!;
    const byId = deps();
    await connectLinkedin({ userId: 'u', clientId: 'c', clientSecret: 's', redirectUri: 'http://127.0.0.1:0/cb', organizationId: org }, fakeIO(), byId);
    expect(byId.connections.saved[0]!.input.pageId).toBe(`urn:li:organization:${org}`);
    const member = deps();
    await connectLinkedin({ userId: 'u', clientId: 'c', clientSecret: 's', redirectUri: 'http://127.0.0.1:0/cb', organizationId: 'member' }, fakeIO(), member);
    expect(member.connections.saved[0]!.input).toMatchObject({ pageId: null, pageName: null });
    await expect(connectLinkedin({ userId: 'u', clientId: 'c', clientSecret: 's', redirectUri: 'http://127.0.0.1:0/cb', organizationId: '42' }, fakeIO(), deps())).rejects.toThrow(
      /does not administer organization 42; administered: .+\(\d+\), .+\(\d+\)/,
    );
  });

  it('refreshes with the granted refresh token, which LinkedIn does not rotate; a refused refresh is permanent', async () => {
    const t = sim.issueTokens('c');
    const creds = {
      connectionId: 'con_li',
      mode: 'live' as const,
      accountId: null,
      accountName: null,
      pageId: null,
      pageName: null,
      secrets: { access_token: t.access_token, refresh_token: t.refresh_token, client_id: 'c', client_secret: 's' },
      tokenExpiresAt: null,
      refreshExpiresAt: null,
      tokenObtainedAt: null,
      meta: {},
    };
    clock.set(clock.now() + 30 * 86_400_000);
    const update = await linkedinTokenRefresher.refresh(creds, { baseUrl, clock });
    expect(update.secrets.refresh_token).toBe(t.refresh_token);
    expect(update.tokenExpiresAt).toBe(clock.now() + 60 * 86_400_000);
    expect(update.refreshExpiresAt).toBe(clock.now() + 335 * 86_400_000);
    await expect(linkedinTokenRefresher.refresh({ ...creds, secrets: { ...creds.secrets, refresh_token: 'AQXforged' } }, { baseUrl, clock })).rejects.toMatchObject({ permanent: true });
  });
});

describe('the API version a connect uses', () => {
  const versionsSent = () => [...new Set(versions)];
  const choose = async <T,>(_q: string, choices: { label: string; value: T }[]) => choices[0]!.value;

  it('is the daemon setting as config.ts read it (DaemonConfig.platforms), not the environment read again by the platform', async () => {
    vi.stubEnv('SOCIALPUB_LINKEDIN_VERSION', monthVersion(clock.now(), 5));
    try {
      const io = { ...fakeIO(['86client', 'sekrit']), choose };
      const pinned = monthVersion(clock.now(), 4);
      await linkedin.connect({ userId: 'usr_1', redirectUri: 'http://127.0.0.1:0/callback' }, io, { ...deps(), platforms: { linkedinVersion: pinned } });
      expect(versionsSent()).toEqual([pinned]);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('is read by config.ts from the environment when connectLive is given no settings (the CLI)', async () => {
    const pinned = monthVersion(clock.now(), 3);
    vi.stubEnv('SOCIALPUB_LINKEDIN_VERSION', pinned);
    try {
      const io = { ...fakeIO(['86client', 'sekrit']), choose };
      await connectLive('linkedin', { userId: 'usr_1', redirectUri: 'http://127.0.0.1:0/callback' }, io, { connections: fakeConnections(), clock, baseUrl });
      expect(versionsSent()).toEqual([pinned]);
      vi.stubEnv('SOCIALPUB_LINKEDIN_VERSION', 'soon');
      await expect(connectLive('linkedin', { userId: 'usr_1' }, io, { connections: fakeConnections(), clock, baseUrl })).rejects.toThrow(/SOCIALPUB_LINKEDIN_VERSION must be a LinkedIn API version/);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
