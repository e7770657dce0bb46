import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_RATE_LIMITS, resolveConfig } from '../../src/config';
import { startDaemon } from '../../src/daemon';
import { publisherConcurrencyOptions } from '../../src/publish-concurrency';
import { createLogger } from '../../src/util/logger';

describe('the daemon config file <data dir>/config.json', () => {
  const dirs: string[] = [];
  const dataDir = (file?: unknown) => {
    const dir = mkdtempSync(join(tmpdir(), 'socialpub-config-'));
    dirs.push(dir);
    if (file !== undefined) writeFileSync(join(dir, 'config.json'), typeof file === 'string' ? file : JSON.stringify(file));
    return dir;
  };
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('leaves the defaults when there is no file', () => {
    const config = resolveConfig({ dataDir: dataDir() }, {});
    expect(config.mediaAllowPrivate).toBe(false);
    expect(config.mediaMaxBytes).toBe(500 * 1024 * 1024);
    expect(config.publicUrl).toBeNull();
    expect(config.rateLimits).toEqual({ enabled: true, classes: DEFAULT_RATE_LIMITS });
  });

  it('reads media_allow_private, media_max_bytes, public_url, rate limits and log level from it', () => {
    const dir = dataDir({
      media_allow_private: true,
      media_max_bytes: 1_000_000,
      public_url: 'https://media.example.com/',
      rate_limits: { publish: { limit: 600 }, media: { limit: 5, window_seconds: 60 } },
      log_level: 'warn',
    });
    const config = resolveConfig({ dataDir: dir }, {});
    expect(config.mediaAllowPrivate).toBe(true);
    expect(config.mediaMaxBytes).toBe(1_000_000);
    expect(config.publicUrl).toBe('https://media.example.com');
    expect(config.rateLimits.classes.publish).toEqual({ limit: 600, windowMs: 3_600_000 });
    expect(config.rateLimits.classes.media).toEqual({ limit: 5, windowMs: 60_000 });
    expect(config.logLevel).toBe('warn');
    expect(resolveConfig({ dataDir: dataDir({ rate_limits: 'off' }) }, {}).rateLimits.enabled).toBe(false);
  });

  it('reads the publisher caps from publish_concurrency and SOCIALPUB_PUBLISH_CONCURRENCY (the environment wins per key), into the publisher options', () => {
    const dir = dataDir({ publish_concurrency: { connection: 2, platform: 100, tiktok: 8 } });
    const config = resolveConfig({ dataDir: dir }, { SOCIALPUB_PUBLISH_CONCURRENCY: 'platform=300, global=900,youtube=3' });
    expect(config.publishConcurrency).toEqual({ connection: 2, platform: 300, global: 900, platforms: { tiktok: 8, youtube: 3 } });
    expect(publisherConcurrencyOptions(config.publishConcurrency)).toEqual({
      concurrency: { instagram: 300, facebook: 300, twitter: 300, threads: 300, tiktok: 8, youtube: 3, bluesky: 300, mastodon: 300, linkedin: 300, pinterest: 300 },
      connectionConcurrency: 2,
      globalConcurrency: 900,
    });
    expect(resolveConfig({ dataDir: dataDir() }, {}).publishConcurrency).toEqual({});
    expect(publisherConcurrencyOptions({})).toEqual({});
    expect(() => resolveConfig({ dataDir: dataDir() }, { SOCIALPUB_PUBLISH_CONCURRENCY: 'connection=0' })).toThrow(/connection must be a whole number of at least 1/);
    expect(() => resolveConfig({ dataDir: dataDir() }, { SOCIALPUB_PUBLISH_CONCURRENCY: 'myspace=4' })).toThrow(/unknown key "myspace"/);
    expect(() => resolveConfig({ dataDir: dataDir() }, { SOCIALPUB_PUBLISH_CONCURRENCY: '64' })).toThrow(/cannot read "64"/);
    expect(() => resolveConfig({ dataDir: dataDir({ publish_concurrency: { platform: 'many' } }) }, {})).toThrow(/publish_concurrency: platform must be a whole number/);
    expect(() => resolveConfig({ dataDir: dataDir({ publish_concurrency: 64 }) }, {})).toThrow(/"publish_concurrency" must be an object/);
  });

  it('lets the environment and then the flags win over the file', () => {
    const dir = dataDir({ media_allow_private: true, public_url: 'https://file.example.com', rate_limits: { publish: { limit: 600 } } });
    const env = { SOCIALPUB_MEDIA_ALLOW_PRIVATE: '0', SOCIALPUB_PUBLIC_URL: 'https://env.example.com', SOCIALPUB_RATE_LIMITS: 'publish=700' };
    const fromEnv = resolveConfig({ dataDir: dir }, env);
    expect(fromEnv.mediaAllowPrivate).toBe(false);
    expect(fromEnv.publicUrl).toBe('https://env.example.com');
    expect(fromEnv.rateLimits.classes.publish.limit).toBe(700);
    const fromFlags = resolveConfig({ dataDir: dir, mediaAllowPrivate: true, publicUrl: 'https://flag.example.com', rateLimits: { publish: { limit: 800 } } }, env);
    expect(fromFlags.mediaAllowPrivate).toBe(true);
    expect(fromFlags.publicUrl).toBe('https://flag.example.com');
    expect(fromFlags.rateLimits.classes.publish.limit).toBe(800);
  });

  it('names the key of a mistake: unknown keys, wrong types, bad JSON, a cap over 500 MB', () => {
    expect(() => resolveConfig({ dataDir: dataDir({ media_allow_privat: true }) }, {})).toThrow(/unknown key "media_allow_privat"/);
    expect(() => resolveConfig({ dataDir: dataDir({ media_allow_private: 'yes' }) }, {})).toThrow(/"media_allow_private" must be true or false/);
    expect(() => resolveConfig({ dataDir: dataDir({ rate_limits: { posting: { limit: 1 } } }) }, {})).toThrow(/rate_limits\.posting/);
    expect(() => resolveConfig({ dataDir: dataDir('{ not json') }, {})).toThrow(ConfigError);
    expect(() => resolveConfig({ dataDir: dataDir({ media_max_bytes: 600 * 1024 * 1024 }) }, {})).toThrow(/media size cap/);
  });

  it('wires media_allow_private into the daemon: a loopback source is prepared only when allowed', async () => {
    const http = await import('node:http');
    const png = Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), Buffer.alloc(64, 1)]);
    const source = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(png));
    await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
    const sourceUrl = `http://127.0.0.1:${(source.address() as { port: number }).port}/a.png`;
    try {
      const outcomes: string[] = [];
      for (const allowed of [false, true]) {
        const config = resolveConfig({ dataDir: dataDir({ media_allow_private: allowed }), port: 0 }, { SOCIALPUB_RATE_LIMITS: 'off' });
        const daemon = await startDaemon(config, { logger: createLogger({ level: 'silent' }) });
        try {
          const { user } = daemon.store.users.ensure('cfg@example.com', Date.now());
          const key = daemon.store.apiKeys.create(user.id, 'test', Date.now()).apiKey;
          const api = (path: string, init: RequestInit = {}) =>
            fetch(`${daemon.url}/api/agents/v1${path}`, { ...init, headers: { 'x-api-key': key, 'content-type': 'application/json' } });
          const { task_id } = (await (await api('/media/prepare', { method: 'POST', body: JSON.stringify({ urls: [sourceUrl] }) })).json()) as { task_id: string };
          let status: { status: string; failed?: { error: { code: string } }[] } = { status: 'processing' };
          for (let i = 0; i < 500 && status.status === 'processing'; i++) status = (await (await api(`/media/status/${task_id}`)).json()) as typeof status;
          outcomes.push(status.status === 'completed' ? 'completed' : (status.failed?.[0]?.error.code ?? status.status));
        } finally {
          await daemon.close();
        }
      }
      expect(outcomes).toEqual(['private_address', 'completed']);
    } finally {
      await new Promise<void>((resolve) => source.close(() => resolve()));
    }
  });
});
