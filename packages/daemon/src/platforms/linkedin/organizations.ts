import type { AccountAccess } from '../adapter';
import type { LinkedinClient } from './linkedin-client';
import type { LinkedinSession } from './linkedin-session';

/** The member's URN: kept at connect time, else from OpenID Connect's userinfo (`sub`). */
export async function memberUrn(ctx: Pick<AccountAccess, 'credentials'>, s: LinkedinSession): Promise<string> {
  const kept = ctx.credentials.meta.person_urn;
  if (typeof kept === 'string' && kept.startsWith('urn:li:person:')) return kept;
  const me = await s.call('userinfo', false, (c) => userinfo(c));
  return `urn:li:person:${me.sub}`;
}

export interface Userinfo {
  sub: string;
  name?: string;
  given_name?: string;
  family_name?: string;
  email?: string;
}

/** `GET /v2/userinfo` (OpenID Connect; scopes openid profile). */
export async function userinfo(c: LinkedinClient): Promise<Userinfo> {
  const res = await c.request<Userinfo>('/v2/userinfo', { method: 'GET' });
  if (!res.body.sub) throw new Error('LinkedIn answered /v2/userinfo without a sub');
  return res.body;
}

/**
 * The organizations the member administers:
 * `GET /rest/organizationAcls?q=roleAssignee&role=ADMINISTRATOR&state=APPROVED`.
 */
export async function administeredOrganizations(_ctx: AccountAccess, s: LinkedinSession): Promise<Array<{ urn: string }>> {
  return s.call('organization access lookup', false, (c) => listAdministered(c));
}

export async function listAdministered(c: LinkedinClient): Promise<Array<{ urn: string }>> {
  const res = await c.request<{ elements?: Array<{ organization?: string; role?: string; state?: string }> }>('/rest/organizationAcls', {
    method: 'GET',
    query: { q: 'roleAssignee', role: 'ADMINISTRATOR', state: 'APPROVED' },
  });
  return (res.body.elements ?? []).filter((e) => typeof e.organization === 'string' && e.state !== 'REVOKED').map((e) => ({ urn: e.organization as string }));
}

/** An organization's name (`GET /rest/organizations/{id}`, localizedName); null when LinkedIn does not say. */
export async function organizationName(c: LinkedinClient, urn: string): Promise<string | null> {
  try {
    const id = urn.replace('urn:li:organization:', '');
    const res = await c.request<{ localizedName?: string }>(`/rest/organizations/${encodeURIComponent(id)}`, { method: 'GET' });
    return res.body.localizedName ?? null;
  } catch {
    return null;
  }
}

