import { createRequire } from 'node:module';
import { AuthClient, RestliClient } from 'linkedin-api-client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultVersion } from '../../src/platforms/linkedin/api-version';
import { linkedinSandbox } from '../../src/platforms/linkedin/sim/sandbox';
import { createSandbox } from '../../src/platforms/sandbox';
import { startSandboxOrigins, type SandboxOrigins } from '../../src/platforms/sandbox-origins';
import { ManualClock } from '../../src/util/clock';

/**
 * LinkedIn's official JavaScript client (`linkedin-api-client`, MIT, by LinkedIn; dev
 * dependency, unmodified) against the simulator. The client fixes its hosts
 * (https://api.linkedin.com/rest, /v2, https://www.linkedin.com/oauth/v2); an axios
 * interceptor only swaps those origins for the simulator's own ones, so every path, query
 * encoding (Rest.li 2.0), header and body is the client's.
 */
const requireFromClient = createRequire(require.resolve('linkedin-api-client'));
/** The axios the client's AuthClient calls (the package's own dependency). */
const axios = requireFromClient('axios') as { interceptors: RestliClient['axiosInstance']['interceptors'] };

let origins: SandboxOrigins;
let clock: ManualClock;
const redirect = (origins: SandboxOrigins) => <T extends { url?: string }>(config: T): T => {
  const url = config.url ?? '';
  config.url = url.replace('https://api.linkedin.com', origins.endpoints['api.linkedin.com']!).replace('https://www.linkedin.com', origins.endpoints['www.linkedin.com']!);
  return config;
};
let globalInterceptor: number;

beforeEach(async () => {
  clock = new ManualClock();
  const sandbox = createSandbox({ store: null, clock }, [linkedinSandbox]);
  origins = await startSandboxOrigins(sandbox.app, sandbox.hosts);
  globalInterceptor = axios.interceptors.request.use(redirect(origins));
});
afterEach(async () => {
  axios.interceptors.request.eject(globalInterceptor);
  await origins.close();
});

describe('linkedin-api-client against the LinkedIn simulator', () => {
  it('signs in (authorization URL, code exchange, refresh), then creates, finds, reads and deletes posts as a member and an organization', async () => {
    const auth = new AuthClient({ clientId: 'client-123', clientSecret: 'secret-456', redirectUrl: 'https://app.example.com/linkedin/callback' });
    const authorizeUrl = auth.generateMemberAuthorizationUrl(['openid', 'profile', 'w_member_social', 'w_organization_social', 'r_organization_social'], 'state-789');
    expect(authorizeUrl.startsWith('https://www.linkedin.com/oauth/v2/authorization?')).toBe(true);
    const consent = await fetch(authorizeUrl.replace('https://www.linkedin.com', origins.endpoints['www.linkedin.com']!), { redirect: 'manual' });
    const back = new URL(consent.headers.get('location')!);
    expect(back.searchParams.get('state')).toBe('state-789');
    const token = await auth.exchangeAuthCodeForAccessToken(back.searchParams.get('code')!);
    expect(token).toMatchObject({ expires_in: 5_184_000, scope: 'openid profile w_member_social w_organization_social r_organization_social' });
    const refreshed = await auth.exchangeRefreshTokenForAccessToken(token.refresh_token!);
    expect(refreshed.refresh_token).toBe(token.refresh_token);
    expect(refreshed.access_token).not.toBe(token.access_token);
    const accessToken = refreshed.access_token;

    const client = new RestliClient();
    client.axiosInstance.interceptors.request.use(redirect(origins));
    const versionString = defaultVersion(clock.now());

    const me = await client.get({ resourcePath: '/userinfo', accessToken });
    const person = `urn:li:person:${(me.data as { sub: string }).sub}`;
    const acls = await client.finder({ resourcePath: '/organizationAcls', finderName: 'roleAssignee', queryParams: { role: 'ADMINISTRATOR', state: 'APPROVED' }, accessToken, versionString });
    const orgs = (acls.data.elements as Array<{ organization: string }>).map((e) => e.organization);
    expect(orgs).toHaveLength(2);
    const org = await client.get({ resourcePath: '/organizations/{id}', pathKeys: { id: orgs[0]!.split(':').pop()! }, accessToken, versionString });
    expect(org.data).toMatchObject({ localizedName: 'Sandbox Member Studio' });

    const init = await client.action({ resourcePath: '/images', actionName: 'initializeUpload', data: { initializeUploadRequest: { owner: orgs[0] } }, accessToken, versionString });
    const { uploadUrl, image } = (init.data as { value: { uploadUrl: string; image: string } }).value;
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(500, 1)]);
    expect((await fetch(uploadUrl, { method: 'PUT', headers: { authorization: `Bearer ${accessToken}` }, body: png })).status).toBe(201);

    const entity = (author: string, commentary: string, content?: unknown) => ({
      author,
      commentary,
      visibility: 'PUBLIC',
      distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
      lifecycleState: 'PUBLISHED',
      isReshareDisabledByAuthor: false,
      ...(content ? { content } : {}),
    });
    const byOrg = await client.create({ resourcePath: '/posts', entity: entity(orgs[0]!, 'An organization post with an image', { media: { id: image, altText: 'a square' } }), accessToken, versionString });
    expect(byOrg.status).toBe(201);
    expect(byOrg.createdEntityId).toMatch(/^urn:li:share:\d+$/);
    const byMember = await client.create({ resourcePath: '/posts', entity: entity(person, 'A member post'), accessToken, versionString });

    const read = await client.get({ resourcePath: '/posts/{id}', pathKeys: { id: byOrg.createdEntityId as string }, accessToken, versionString });
    expect(read.data).toMatchObject({ id: byOrg.createdEntityId, author: orgs[0], content: { media: { id: image } } });
    const found = await client.finder({ resourcePath: '/posts', finderName: 'author', queryParams: { author: orgs[0], count: 10 }, accessToken, versionString });
    expect((found.data.elements as Array<{ id: string }>).map((p) => p.id)).toEqual([byOrg.createdEntityId]);

    await client.delete({ resourcePath: '/posts/{id}', pathKeys: { id: byMember.createdEntityId as string }, accessToken, versionString });
    await expect(client.get({ resourcePath: '/posts/{id}', pathKeys: { id: byMember.createdEntityId as string }, accessToken, versionString })).rejects.toMatchObject({
      response: { status: 404, data: { status: 404, code: 'NOT_FOUND' } },
    });
  });

  it('gets 426 NONEXISTENT_VERSION for a retired version, as the client sends it', async () => {
    const client = new RestliClient();
    client.axiosInstance.interceptors.request.use(redirect(origins));
    await expect(client.finder({ resourcePath: '/organizationAcls', finderName: 'roleAssignee', accessToken: 'sandbox-contract', versionString: '202401' })).rejects.toMatchObject({
      response: { status: 426, data: { status: 426, code: 'NONEXISTENT_VERSION', message: 'Requested version 202401 is not active' } },
    });
  });
});
