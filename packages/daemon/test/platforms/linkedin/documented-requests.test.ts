import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox } from '../../../src/platforms/sandbox';
import { startSandboxOrigins, type SandboxOrigins } from '../../../src/platforms/sandbox-origins';
import { linkedinSandbox } from '../../../src/platforms/linkedin/sim/sandbox';
import { defaultVersion } from '../../../src/platforms/linkedin/api-version';
import { ManualClock } from '../../../src/util/clock';
import { fakeBytes } from '../shared/harness';

/**
 * The requests of LinkedIn's own documentation, sent with plain HTTP (fetch) the way its
 * examples write them, against the simulator at its own loopback origins (as `socialpub
 * sandbox endpoints` lists them). Request shapes from learn.microsoft.com/linkedin:
 * "Authorization Code Flow (3-legged OAuth)", "Sign In with LinkedIn using OpenID Connect"
 * (/v2/userinfo), "Organization Access Control by Role", "Images API", "Posts API"
 * (create, get, find by author, delete).
 */
let origins: SandboxOrigins;
let clock: ManualClock;
let api: string;
let www: string;

beforeEach(async () => {
  clock = new ManualClock();
  const sandbox = createSandbox({ store: null, clock }, [linkedinSandbox]);
  origins = await startSandboxOrigins(sandbox.app, sandbox.hosts);
  api = origins.endpoints['api.linkedin.com']!;
  www = origins.endpoints['www.linkedin.com']!;
});
afterEach(() => origins.close());

describe('LinkedIn documented request shapes against the simulator', () => {
  it('token exchange, userinfo, organization ACLs, image upload, a post with that image, a post by an organization, read back, delete', async () => {
    // 1. Authorization: the member approves at once and comes back with a code.
    const redirect = 'https://dev.example.com/auth/linkedin/callback';
    const authorize = await fetch(
      `${www}/oauth/v2/authorization?response_type=code&client_id=123456789&redirect_uri=${encodeURIComponent(redirect)}&state=foobar&scope=${encodeURIComponent('openid profile w_member_social w_organization_social r_organization_social')}`,
      { redirect: 'manual' },
    );
    expect(authorize.status).toBe(302);
    const back = new URL(authorize.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe(redirect);
    expect(back.searchParams.get('state')).toBe('foobar');
    const code = back.searchParams.get('code')!;

    // 2. Token exchange: POST https://www.linkedin.com/oauth/v2/accessToken, form-encoded.
    const tokenRes = await fetch(`${www}/oauth/v2/accessToken`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `grant_type=authorization_code&code=${code}&client_id=123456789&client_secret=shhdonottell&redirect_uri=${encodeURIComponent(redirect)}`,
    });
    expect(tokenRes.status).toBe(200);
    const token = (await tokenRes.json()) as { access_token: string; expires_in: number; scope: string; refresh_token: string; refresh_token_expires_in: number };
    expect(token.expires_in).toBe(5_184_000);
    expect(token.scope).toBe('openid profile w_member_social w_organization_social r_organization_social');
    // The code is single-use.
    const reuse = await fetch(`${www}/oauth/v2/accessToken`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `grant_type=authorization_code&code=${code}&client_id=123456789&client_secret=shhdonottell&redirect_uri=${encodeURIComponent(redirect)}`,
    });
    expect(reuse.status).toBe(400);
    expect(((await reuse.json()) as { error: string }).error).toBe('invalid_request');

    const bearer = { Authorization: `Bearer ${token.access_token}` };
    const rest = { ...bearer, 'LinkedIn-Version': defaultVersion(clock.now()), 'X-Restli-Protocol-Version': '2.0.0' };

    // 3. userinfo (OpenID Connect).
    const me = (await (await fetch(`${api}/v2/userinfo`, { headers: bearer })).json()) as { sub: string; name: string };
    expect(me.sub).toMatch(/^[A-Za-z0-9]+$/);
    expect(me.name).toBe('Sandbox Member');
    const person = `urn:li:person:${me.sub}`;

    // 4. The member's organizations: GET /rest/organizationAcls?q=roleAssignee.
    const acls = await fetch(`${api}/rest/organizationAcls?q=roleAssignee&role=ADMINISTRATOR&state=APPROVED`, { headers: rest });
    expect(acls.status).toBe(200);
    const aclBody = (await acls.json()) as { elements: Array<{ roleAssignee: string; state: string; role: string; organization: string }> };
    expect(aclBody.elements).toHaveLength(2);
    expect(aclBody.elements[0]).toEqual({ roleAssignee: person, state: 'APPROVED', role: 'ADMINISTRATOR', organization: expect.stringMatching(/^urn:li:organization:\d+$/) });
    const org = aclBody.elements[0]!.organization;

    // 5. Image upload: initializeUpload, then PUT the bytes to the upload URL (curl --upload-file).
    const init = await fetch(`${api}/rest/images?action=initializeUpload`, {
      method: 'POST',
      headers: { ...rest, 'Content-Type': 'application/json' },
      body: JSON.stringify({ initializeUploadRequest: { owner: org } }),
    });
    expect(init.status).toBe(200);
    const { value } = (await init.json()) as { value: { uploadUrlExpiresAt: number; uploadUrl: string; image: string } };
    expect(value.image).toMatch(/^urn:li:image:/);
    expect(value.uploadUrlExpiresAt).toBeGreaterThan(clock.now());
    expect(new URL(value.uploadUrl).origin).toBe(api);
    const put = await fetch(value.uploadUrl, { method: 'PUT', headers: bearer, body: fakeBytes('png', 2048) });
    expect(put.status).toBe(201);
    const imageState = (await (await fetch(`${api}/rest/images/${encodeURIComponent(value.image)}`, { headers: rest })).json()) as { status: string };
    expect(imageState.status).toBe('AVAILABLE');

    // 6. A post with that image, by the organization.
    const withImage = await fetch(`${api}/rest/posts`, {
      method: 'POST',
      headers: { ...rest, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        author: org,
        commentary: 'Sample text Post',
        visibility: 'PUBLIC',
        distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
        content: { media: { altText: 'testing for alt tags', id: value.image } },
        lifecycleState: 'PUBLISHED',
        isReshareDisabledByAuthor: false,
      }),
    });
    expect(withImage.status).toBe(201);
    const imagePost = withImage.headers.get('x-restli-id')!;
    expect(imagePost).toMatch(/^urn:li:share:\d+$/);

    // 7. A text post by the organization, and one by the member.
    const textPost = async (author: string, commentary: string) =>
      fetch(`${api}/rest/posts`, {
        method: 'POST',
        headers: { ...rest, 'Content-Type': 'application/json' },
        body: JSON.stringify({ author, commentary, visibility: 'PUBLIC', distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] }, lifecycleState: 'PUBLISHED', isReshareDisabledByAuthor: false }),
      });
    const byOrg = await textPost(org, 'Hello from the organization');
    expect(byOrg.status).toBe(201);
    expect((await textPost(person, 'Hello from the member')).status).toBe(201);

    // 8. Read back: GET /rest/posts/{encoded urn}, and find by author.
    const read = await fetch(`${api}/rest/posts/${encodeURIComponent(imagePost)}`, { headers: rest });
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ id: imagePost, author: org, commentary: 'Sample text Post', visibility: 'PUBLIC', lifecycleState: 'PUBLISHED', content: { media: { id: value.image } } });
    const found = (await (await fetch(`${api}/rest/posts?author=${encodeURIComponent(org)}&q=author&count=10&sortBy=LAST_MODIFIED`, { headers: rest })).json()) as { elements: Array<{ id: string }> };
    expect(found.elements.map((p) => p.id)).toEqual([byOrg.headers.get('x-restli-id'), imagePost]);

    // 9. Delete: DELETE /rest/posts/{encoded urn} with X-RestLi-Method: DELETE.
    const del = await fetch(`${api}/rest/posts/${encodeURIComponent(imagePost)}`, { method: 'DELETE', headers: { ...rest, 'X-RestLi-Method': 'DELETE' } });
    expect(del.status).toBe(204);
    expect((await fetch(`${api}/rest/posts/${encodeURIComponent(imagePost)}`, { headers: rest })).status).toBe(404);
  });

  it("refuses as LinkedIn does: no version, a retired version, no Rest.li header, no token, another member's organization, a throttled member", async () => {
    const token = 'sandbox-docs';
    const call = (headers: Record<string, string>) => fetch(`${api}/rest/organizationAcls?q=roleAssignee`, { headers: { Authorization: `Bearer ${token}`, ...headers } });
    const noVersion = await call({ 'X-Restli-Protocol-Version': '2.0.0' });
    expect(noVersion.status).toBe(400);
    expect(await noVersion.json()).toEqual({ status: 400, code: 'VERSION_MISSING', message: 'A version must be present. Please specify a version by adding the LinkedIn-Version header.' });
    const retired = await call({ 'LinkedIn-Version': '202401', 'X-Restli-Protocol-Version': '2.0.0' });
    expect(retired.status).toBe(426);
    expect(await retired.json()).toEqual({ status: 426, code: 'NONEXISTENT_VERSION', message: 'Requested version 202401 is not active' });
    const noRestli = await call({ 'LinkedIn-Version': defaultVersion(clock.now()) });
    expect(noRestli.status).toBe(400);
    expect(await noRestli.json()).toMatchObject({ status: 400, serviceErrorCode: 100, code: 'ILLEGAL_ARGUMENT' });
    const noToken = await fetch(`${api}/rest/organizationAcls?q=roleAssignee`, { headers: { 'LinkedIn-Version': defaultVersion(clock.now()), 'X-Restli-Protocol-Version': '2.0.0' } });
    expect(noToken.status).toBe(401);
    expect(await noToken.json()).toEqual({ status: 401, serviceErrorCode: 65600, code: 'INVALID_ACCESS_TOKEN', message: 'Invalid access token' });

    const rest = { Authorization: `Bearer ${token}`, 'LinkedIn-Version': defaultVersion(clock.now()), 'X-Restli-Protocol-Version': '2.0.0', 'Content-Type': 'application/json' };
    const post = (author: string) =>
      fetch(`${api}/rest/posts`, { method: 'POST', headers: rest, body: JSON.stringify({ author, commentary: 'x', visibility: 'PUBLIC', distribution: { feedDistribution: 'MAIN_FEED' }, lifecycleState: 'PUBLISHED' }) });
    const foreign = await post('urn:li:organization:1');
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ status: 403, code: 'ACCESS_DENIED' });
    const me = (await (await fetch(`${api}/v2/userinfo`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { sub: string };
    for (let i = 0; i < 150; i++) expect((await post(`urn:li:person:${me.sub}`)).status).toBe(201);
    const throttled = await post(`urn:li:person:${me.sub}`);
    expect(throttled.status).toBe(429);
    expect(await throttled.json()).toEqual({ status: 429, serviceErrorCode: 101, code: 'TOO_MANY_REQUESTS', message: 'Resource level throttle MEMBER DAY limit for calls to this resource is reached.' });
  });
});
