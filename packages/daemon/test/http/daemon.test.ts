import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { openAdmin } from '../../src/admin/admin';
import { ConfigError, resolveConfig } from '../../src/config';
import { startDaemon } from '../../src/daemon';
import { createLogger } from '../../src/util/logger';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const dataDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'sp-daemon-'));
  dirs.push(d);
  return d;
};

describe('startDaemon', () => {
  it('serves the interface on 127.0.0.1 and closes cleanly', async () => {
    const dir = dataDir();
    const admin = openAdmin(dir);
    const { api_key } = admin.createKey({ email: 'me@example.com' });
    admin.close();
    const lines: string[] = [];
    const daemon = await startDaemon(resolveConfig({ dataDir: dir, port: 0 }, {}), { logger: createLogger({ write: (l) => lines.push(l) }) });
    try {
      expect(daemon.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const res = await fetch(`${daemon.url}/api/agents/v1/auth/validate`, { method: 'POST', headers: { Authorization: `Bearer ${api_key}` } });
      expect(res.status).toBe(200);
      expect((await fetch(`${daemon.url}/healthz`)).status).toBe(200);
    } finally {
      await daemon.close();
    }
    await expect(fetch(`${daemon.url}/healthz`)).rejects.toThrow();
    expect(lines.some((l) => l.includes('listening'))).toBe(true);
    expect(lines.join('\n')).not.toContain(api_key);
  });

  it('logs loudly when rate limits are off', async () => {
    const lines: string[] = [];
    const daemon = await startDaemon(resolveConfig({ dataDir: dataDir(), port: 0 }, { SOCIALPUB_RATE_LIMITS: 'off' }), {
      logger: createLogger({ write: (l) => lines.push(l) }),
    });
    await daemon.close();
    const warning = lines.map((l) => JSON.parse(l) as { level: string; msg: string }).find((l) => l.msg.includes('RATE LIMITS ARE OFF'));
    expect(warning?.level).toBe('warn');
  });

  it('serves HTTPS from certificate and key files', async () => {
    const daemon = await startDaemon(
      resolveConfig({ dataDir: dataDir(), port: 0, tlsCert: fixture('tls-cert.pem'), tlsKey: fixture('tls-key.pem') }, {}),
      { logger: createLogger({ level: 'silent' }) },
    );
    try {
      expect(daemon.url).toMatch(/^https:\/\//);
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpsRequest(`${daemon.url}/healthz`, { ca: readFileSync(fixture('tls-cert.pem')) }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      });
      expect(status).toBe(200);
    } finally {
      await daemon.close();
    }
  });
});

describe('transport configuration', () => {
  it('listens on 127.0.0.1:8787 by default', () => {
    const cfg = resolveConfig({ dataDir: '/tmp/x' }, {});
    expect([cfg.host, cfg.port, cfg.tls, cfg.behindProxy]).toEqual(['127.0.0.1', 8787, null, false]);
  });

  it('refuses a non-loopback address without TLS, unless behind a TLS proxy', () => {
    expect(() => resolveConfig({ dataDir: '/tmp/x', host: '0.0.0.0' }, {})).toThrow(ConfigError);
    expect(resolveConfig({ dataDir: '/tmp/x', host: '0.0.0.0', behindProxy: true }, {}).behindProxy).toBe(true);
    expect(resolveConfig({ dataDir: '/tmp/x', host: '0.0.0.0', tlsCert: 'c.pem', tlsKey: 'k.pem' }, {}).tls).not.toBeNull();
    expect(() => resolveConfig({ dataDir: '/tmp/x', tlsCert: 'c.pem' }, {})).toThrow(/both/);
  });

  it('trusts one proxy hop by default, SOCIALPUB_TRUSTED_PROXY_HOPS or the option otherwise, and refuses nonsense', () => {
    expect(resolveConfig({ dataDir: '/tmp/x' }, {}).trustedProxyHops).toBe(1);
    expect(resolveConfig({ dataDir: '/tmp/x' }, { SOCIALPUB_TRUSTED_PROXY_HOPS: '2' }).trustedProxyHops).toBe(2);
    expect(resolveConfig({ dataDir: '/tmp/x', trustedProxyHops: 3 }, { SOCIALPUB_TRUSTED_PROXY_HOPS: '2' }).trustedProxyHops).toBe(3);
    for (const bad of ['0', 'two', '1.5', '-1']) {
      expect(() => resolveConfig({ dataDir: '/tmp/x' }, { SOCIALPUB_TRUSTED_PROXY_HOPS: bad })).toThrow(/SOCIALPUB_TRUSTED_PROXY_HOPS/);
    }
  });

  it('finds the data dir from the flag, then SOCIALPUB_HOME, then ~/.local/share/socialpub', () => {
    expect(resolveConfig({ dataDir: '/a' }, { SOCIALPUB_HOME: '/b' }).dataDir).toBe('/a');
    expect(resolveConfig({}, { SOCIALPUB_HOME: '/b' }).dbPath).toBe('/b/socialpub.db');
    expect(resolveConfig({}, {}).dataDir).toMatch(/\.local\/share\/socialpub$/);
  });

  it('reads the public URL from the flag or SOCIALPUB_PUBLIC_URL', () => {
    expect(resolveConfig({ dataDir: '/a' }, { SOCIALPUB_PUBLIC_URL: 'https://pub.example.com/' }).publicUrl).toBe('https://pub.example.com');
    expect(() => resolveConfig({ dataDir: '/a', publicUrl: 'ftp://x' }, {})).toThrow(ConfigError);
  });
});
