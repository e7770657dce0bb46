import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { registryEnv } from './registry-env';

const home = mkdtempSync(join(tmpdir(), 'socialpub-registry-env-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('registryEnv (what npm-packages.test.ts hands npm from the machine)', () => {
  it("keeps the CA, proxy and npm settings, drops pnpm's own and everything else", () => {
    const kept = registryEnv({
      NODE_EXTRA_CA_CERTS: '/etc/ssl/corp.pem',
      SSL_CERT_FILE: '/etc/ssl/cert.pem',
      HTTPS_PROXY: 'http://proxy:3128',
      http_proxy: 'http://proxy:3128',
      NO_PROXY: 'localhost',
      npm_config_registry: 'https://registry.example/',
      npm_config_cafile: '/etc/ssl/corp.pem',
      npm_config_user_agent: 'pnpm/10',
      npm_config_verify_deps_before_run: 'false',
      SOCIALPUB_HOME: '/somewhere',
      SECRET_TOKEN: 'x',
    });
    expect(kept).toEqual({
      NODE_EXTRA_CA_CERTS: '/etc/ssl/corp.pem',
      SSL_CERT_FILE: '/etc/ssl/cert.pem',
      HTTPS_PROXY: 'http://proxy:3128',
      http_proxy: 'http://proxy:3128',
      NO_PROXY: 'localhost',
      npm_config_registry: 'https://registry.example/',
      npm_config_cafile: '/etc/ssl/corp.pem',
    });
  });

  it("points npm at the user's ~/.npmrc, which a changed HOME would hide", () => {
    expect(registryEnv({ HOME: home })).toEqual({});
    writeFileSync(join(home, '.npmrc'), 'registry=https://registry.example/\n');
    expect(registryEnv({ HOME: home })).toEqual({ npm_config_userconfig: join(home, '.npmrc') });
    expect(registryEnv({ HOME: home, npm_config_userconfig: '/etc/npmrc' })).toEqual({ npm_config_userconfig: '/etc/npmrc' });
  });
});
