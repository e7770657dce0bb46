import { execFile } from 'node:child_process';
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const sdkDir = fileURLToPath(new URL('..', import.meta.url));
const rootDir = fileURLToPath(new URL('../../..', import.meta.url));
/**
 * A consumer's node_modules/@socialpub/sdk, built by tsup from this checkout. It lives under
 * packages/sdk/node_modules so got and zod resolve the way they would for a real install,
 * while @socialpub/core must come from the bundle (it is not installed for a consumer).
 */
const consumerDir = `${sdkDir}node_modules/.cache/dist-test-${process.pid}`;
const installed = `${consumerDir}/node_modules/@socialpub/sdk`;
const node = process.execPath;

beforeAll(async () => {
  await mkdir(installed, { recursive: true });
  await cp(`${sdkDir}package.json`, `${installed}/package.json`);
  await run(node, [`${rootDir}node_modules/tsup/dist/cli-default.js`, '--out-dir', `${installed}/dist`, '--silent'], { cwd: sdkDir });
}, 120_000);

afterAll(async () => {
  await rm(consumerDir, { recursive: true, force: true });
});

const probe = `(async () => {
  const sdk = MODULE;
  const client = new sdk.SocialPub({ baseUrl: 'http://127.0.0.1:9', apiKey: 'sp_a_b' });
  const err = sdk.APIError.from({ response: { statusCode: 429, headers: { 'retry-after': '5' }, body: '{"success":false,"error":{"code":"rate_limited","message":"slow"}}' } });
  console.log(JSON.stringify({
    resources: ['auth', 'content', 'scheduled', 'media', 'platforms'].filter((r) => typeof client[r] === 'object'),
    rateLimit: err instanceof sdk.RateLimitError && err instanceof sdk.APIError && err instanceof sdk.SocialPubError,
    retryAfter: err.retryAfter,
    platforms: sdk.PLATFORMS,
    // A real request (nothing listens on port 9): got loads, fails to connect, and the error is ours.
    answered: await client.scheduled.list({}, { maxRetries: 0 }).then(() => false, (e) => e instanceof sdk.APIConnectionError && e.code === 'ECONNREFUSED'),
  }));
})();
`;

const expected = {
  resources: ['auth', 'content', 'scheduled', 'media', 'platforms'],
  rateLimit: true,
  retryAfter: 5,
  answered: true,
  platforms: ['instagram', 'facebook', 'twitter', 'threads', 'tiktok', 'youtube', 'bluesky', 'mastodon', 'linkedin', 'pinterest'],
};

describe('the built package', () => {
  it('loads with import (ESM) under this Node', async () => {
    const { stdout } = await run(node, ['--input-type=module', '-e', probe.replace('MODULE', "await import('@socialpub/sdk')")], { cwd: consumerDir });
    expect(JSON.parse(stdout)).toEqual(expected);
  });

  it('loads with require (CommonJS) under this Node', async () => {
    const { stdout } = await run(node, ['--input-type=commonjs', '-e', probe.replace('MODULE', "require('@socialpub/sdk')")], { cwd: consumerDir });
    expect(JSON.parse(stdout)).toEqual(expected);
  });

  it('bundles core, keeps got and zod external, and carries no daemon code', async () => {
    // The ESM build is split (index.js, a shared chunk, the schemas' chunk); the CommonJS build is one file.
    const files = (await readdir(`${installed}/dist`)).filter((f) => /\.(js|cjs|d\.ts|d\.cts)$/.test(f));
    expect(files).toEqual(expect.arrayContaining(['index.js', 'index.cjs', 'index.d.ts', 'index.d.cts']));
    const text: Record<string, string> = {};
    for (const file of files) {
      text[file] = await readFile(`${installed}/dist/${file}`, 'utf8');
      expect(text[file], file).not.toMatch(/@socialpub\/(core|daemon)|better-sqlite3|from ["']hono|require\(["']hono/);
    }
    const esm = files.filter((f) => f.endsWith('.js')).map((f) => text[f]).join('\n');
    const cjs = text['index.cjs'] ?? '';
    // The schemas are loaded with import() on the first answer checked: a chunk index.js does not import.
    const schemasChunk = files.find((f) => /^schemas-.*\.js$/.test(f));
    expect(schemasChunk, `a schemas-*.js chunk among ${files.join(', ')}`).toMatch(/^schemas-[\w-]+\.js$/);
    expect(text['index.js']).toContain(`import("./${schemasChunk}")`);
    expect(text['index.js']).not.toMatch(new RegExp(`from "\\./${schemasChunk}"`));
    // got is ESM-only: both builds load it with import() on first use (so CommonJS works on every Node 22).
    expect(esm).toMatch(/import\("got"\)/);
    expect(cjs).toMatch(/import\("got"\)/);
    expect(cjs).not.toMatch(/require\("got"\)/);
    expect(esm).toMatch(/from "zod"/);
    expect(cjs).toMatch(/require\("zod"\)/);
  });

  it('gives TypeScript consumers types through the exports map, for ESM and CommonJS', async () => {
    await writeFile(`${consumerDir}/esm.mts`, `import { SocialPub, type PublishResult } from '@socialpub/sdk';\nconst r: Promise<PublishResult> = new SocialPub().content.publish({ caption: 'c', platforms: ['twitter'], publish_now: true });\nvoid r;\n`);
    await writeFile(`${consumerDir}/cjs.cts`, `import sdk = require('@socialpub/sdk');\nconst e: sdk.RateLimitError | undefined = undefined;\nvoid e;\n// @ts-expect-error not a platform\nvoid new sdk.SocialPub().content.publish({ caption: 'c', platforms: ['myspace'], publish_now: true });\n`);
    await writeFile(
      `${consumerDir}/tsconfig.json`,
      JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2023', strict: true, noEmit: true, types: [], skipLibCheck: false }, files: ['esm.mts', 'cjs.cts'] }),
    );
    const result = await run(node, [`${rootDir}node_modules/typescript/bin/tsc`, '-p', 'tsconfig.json'], { cwd: consumerDir }).catch((e: { stdout: string }) => e);
    expect(result.stdout).toBe('');
    // tsc checks zod's declarations too (skipLibCheck off): 105 s measured on a 2-core machine at load 20.
  }, 240_000);
});
