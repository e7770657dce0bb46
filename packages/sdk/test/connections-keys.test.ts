import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openAdmin, resolveConfig, silentLogger, startDaemon, type DaemonHandle } from '@socialpub/daemon';
import { ConflictError, PermissionDeniedError, SocialPub } from '@socialpub/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const EMAIL = 'accounts@example.com';

describe('client.connections and client.keys against the real daemon', () => {
  let dataDir: string;
  let daemon: DaemonHandle;
  let apiKey: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'socialpub-sdk-accounts-'));
    daemon = await startDaemon(resolveConfig({ dataDir, host: '127.0.0.1', port: 0, logLevel: 'error' }, {}), { logger: silentLogger });
    const admin = openAdmin(dataDir);
    apiKey = admin.createKey({ email: EMAIL, name: 'sdk' }).api_key;
    admin.addSandboxConnection('twitter', { email: EMAIL });
    admin.close();
  });
  afterAll(async () => {
    await daemon?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('connects a second account, lists both with their labels, makes it the default and refuses a label in use', async () => {
    const client = new SocialPub({ baseUrl: daemon.url, apiKey });
    const brand = await client.connections.connectSandbox({ platform: 'twitter', label: 'brand' });
    expect(brand).toMatchObject({ platform: 'twitter', label: 'brand', is_default: false, sandbox: true });
    const listed = (await client.connections.list()).data;
    expect(listed.map((c) => [c.label, c.is_default])).toEqual([
      ['default', true],
      ['brand', false],
    ]);
    const made = await client.connections.update(brand.id, { default: true });
    expect(made).toMatchObject({ label: 'brand', is_default: true });
    const other = listed.find((c) => c.label === 'default')!;
    await expect(client.connections.update(other.id, { label: 'brand' })).rejects.toBeInstanceOf(ConflictError);
    await client.connections.remove(other.id);
    expect((await client.connections.list()).data.map((c) => c.label)).toEqual(['brand']);
  });

  it('makes a read key, lists keys with their scopes, and the read key may not list them', async () => {
    const client = new SocialPub({ baseUrl: daemon.url, apiKey });
    const read = await client.keys.create({ name: 'widget', scope: 'read' });
    expect(read).toMatchObject({ name: 'widget', scope: 'read', key: expect.stringMatching(/^sp_key_/) });
    expect((await client.keys.list()).data.map((k) => [k.name, k.scope])).toEqual([
      ['sdk', 'full'],
      ['widget', 'read'],
    ]);
    const widget = new SocialPub({ baseUrl: daemon.url, apiKey: read.key });
    await expect(widget.keys.list()).rejects.toBeInstanceOf(PermissionDeniedError);
    expect((await widget.connections.list()).data.every((c) => !('sandbox_password' in c))).toBe(true);
    const rotated = await client.keys.rotate(read.id);
    expect(rotated).toMatchObject({ scope: 'read', replaced: read.id });
    await client.keys.revoke(rotated.id);
    expect((await client.keys.list()).data.map((k) => k.name)).toEqual(['sdk']);
  });
});
