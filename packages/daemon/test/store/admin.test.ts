import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AdminError, DEFAULT_EMAIL, openAdmin } from '../../src/admin/admin';
import { resolveConfig } from '../../src/config';
import { testApp } from '../support/test-app';
import { openDatabase } from '../../src/store/database';
import { useTempDirs } from '../support/temp-dirs';

const tempDir = useTempDirs();
const dataDir = () => tempDir('sp-admin-');

describe('local admin on the data dir', () => {
  it('creates a key (and its user) that the HTTP interface accepts', async () => {
    const dir = dataDir();
    const admin = openAdmin(dir);
    const created = admin.createKey({ email: 'me@example.com', name: 'laptop' });
    expect(created).toMatchObject({ email: 'me@example.com', key_id: expect.stringMatching(/^key_/) });
    expect(created.api_key).toMatch(new RegExp(`^sp_${created.key_id}_[0-9a-z]{40}$`));
    admin.close();

    const db = openDatabase(join(dir, 'socialpub.db'));
    const { app } = testApp({ db, config: resolveConfig({ dataDir: dir }, {}) });
    const res = await app.request('/api/agents/v1/auth/validate', { method: 'POST', headers: { 'X-API-Key': created.api_key } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { user: { id: string } }).user.id).toBe(created.user_id);
    db.close();
    expect(statSync(join(dir, 'secret.key')).mode & 0o777).toBe(0o600);
  });

  it('reuses the only user when no email is given, and uses the default owner on a fresh data dir', () => {
    const admin = openAdmin(dataDir());
    const first = admin.createKey();
    expect(first.email).toBe(DEFAULT_EMAIL);
    expect(admin.createKey().user_id).toBe(first.user_id);
    admin.createKey({ email: 'second@example.com' });
    expect(() => admin.createKey()).toThrow(/several users/);
    admin.close();
  });

  it('lists, revokes and rotates keys', () => {
    const admin = openAdmin(dataDir());
    const a = admin.createKey({ email: 'me@example.com' });
    const b = admin.createKey({ email: 'me@example.com' });
    // Listed by (created_at, id): two keys made in the same millisecond come in id order.
    const keys = admin.listKeys();
    const inOrder = keys[0]!.created_at === keys[1]!.created_at ? [a.key_id, b.key_id].sort() : [a.key_id, b.key_id];
    expect(keys.map((k) => [k.key_id, k.status])).toEqual(inOrder.map((id) => [id, 'active']));
    expect(admin.revokeKey(a.key_id).status).toBe('revoked');
    expect(() => admin.revokeKey(a.key_id)).toThrow(AdminError);
    const rotated = admin.rotateKey(b.key_id);
    expect(rotated.replaced).toBe(b.key_id);
    const listed = Object.fromEntries(admin.listKeys({ email: 'me@example.com' }).map((k) => [k.key_id, k]));
    expect(listed[b.key_id]).toMatchObject({ status: 'rotated', replaced_by: rotated.key_id });
    expect(listed[rotated.key_id]!.status).toBe('active');
    expect(JSON.stringify(admin.listKeys())).not.toContain(rotated.api_key.split('_').pop());
    expect(() => admin.revokeKey('key_unknown')).toThrow(/no key/);
    admin.close();
  });

  it('records sandbox connections (facebook with a page), lists and removes them', () => {
    const admin = openAdmin(dataDir());
    admin.createKey({ email: 'me@example.com' });
    const fb = admin.addSandboxConnection('facebook', { email: 'me@example.com' });
    expect(fb).toMatchObject({ platform: 'facebook', mode: 'sandbox', status: 'active', page_id: expect.stringMatching(/^sandbox_page_/) });
    const tw = admin.addSandboxConnection('twitter');
    expect(tw.page_id).toBeNull();
    expect(admin.listConnections().map((c) => c.platform)).toEqual(['facebook', 'twitter']);
    expect(admin.store.credentials.credentialsFor(tw.user_id, 'twitter')!.secrets.access_token).toMatch(/^sandbox_at_/);
    admin.removeConnection('twitter');
    admin.removeConnection(fb.connection_id);
    expect(admin.listConnections()).toEqual([]);
    expect(() => admin.addSandboxConnection('myspace')).toThrow(/unknown platform/);
    admin.close();
  });

  it('turns the approval workflow on and off', () => {
    const admin = openAdmin(dataDir());
    const k = admin.createKey({ email: 'me@example.com' });
    expect(admin.setApprovalWorkflow('me@example.com', true)).toEqual({ email: 'me@example.com', user_id: k.user_id, approval_workflow: true, agent_approval: true, timezone: null });
    expect(admin.store.users.get(k.user_id)!.approvalWorkflow).toBe(true);
    admin.setApprovalWorkflow(undefined, false);
    expect(admin.store.users.get(k.user_id)!.approvalWorkflow).toBe(false);
    expect(() => admin.setApprovalWorkflow('nobody@example.com', true)).toThrow(/no user/);
    admin.close();
  });
});
