import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempHome } from './helpers';
import { registryEnv } from './registry-env';

/**
 * The two npm packages as a user gets them: `pnpm pack` of each (what `pnpm publish`
 * uploads), checked by publint and arethetypeswrong, installed with npm into an empty
 * project and into an empty global prefix, then used: the `socialpub` command runs its
 * daemon, and SDK scripts (ESM, CommonJS, TypeScript under node16 and bundler resolution)
 * talk to it. Needs the build (`scripts/pnpm build`) and the npm registry (for
 * better-sqlite3, got and zod).
 */
const root = fileURLToPath(new URL('../../..', import.meta.url));
const home = tempHome();
const packs = join(home.root, 'packs');
const project = join(home.root, 'project');
const prefix = join(home.root, 'global');
const node = process.execPath;
const tool = (name: string) => join(root, 'node_modules', '.bin', name);
// npm (the machine's, run by this node: it comes first on PATH) keeps its own cache, so the registry is not fetched again each run.
const env = {
  ...registryEnv(process.env),
  ...home.env,
  PATH: `${dirname(node)}:${process.env.PATH}`,
  npm_config_cache: process.env.npm_config_cache ?? join(process.env.HOME ?? home.root, '.npm'),
};
const npm = (args: string[], cwd: string) => execa('npm', [...args, '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], { cwd, env, extendEnv: false, timeout: 280_000 });
let cliTgz = '';
let sdkTgz = '';

beforeAll(async () => {
  mkdirSync(packs, { recursive: true });
  for (const pkg of ['sdk', 'cli']) {
    await execa(join(root, 'scripts', 'pnpm'), ['pack', '--pack-destination', packs], { cwd: join(root, 'packages', pkg) });
  }
  const files = readdirSync(packs);
  cliTgz = join(packs, files.find((f) => /^socialpub-\d/.test(f)) as string);
  sdkTgz = join(packs, files.find((f) => f.startsWith('socialpub-sdk-')) as string);
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, version: '1.0.0' }));
  await npm(['install', cliTgz, sdkTgz], project);
  await npm(['install', '--global', '--prefix', prefix, cliTgz], home.root);
}, 600_000);

afterAll(async () => {
  await execa(join(project, 'node_modules', '.bin', 'socialpub'), ['down'], { env, extendEnv: false, reject: false });
  home.cleanup();
});

describe('the npm packages', () => {
  it('pass publint, and the SDK passes arethetypeswrong (ESM, CJS, node10, node16, bundler)', async () => {
    for (const tgz of [cliTgz, sdkTgz]) {
      const lint = await execa(tool('publint'), ['run', '--strict', tgz], { reject: false });
      expect(lint.exitCode, lint.stdout + lint.stderr).toBe(0);
      expect(lint.stdout).toContain('All good!');
    }
    const attw = await execa(tool('attw'), [sdkTgz, '--format', 'json'], { reject: false });
    expect(attw.exitCode, attw.stdout).toBe(0);
    const report = JSON.parse(attw.stdout) as { analysis: { problems: unknown[]; entrypoints: Record<string, { resolutions: Record<string, unknown> }> } };
    expect(report.analysis.problems).toEqual([]);
    expect(Object.keys(report.analysis.entrypoints['.']?.resolutions ?? {}).sort()).toEqual(['bundler', 'node10', 'node16-cjs', 'node16-esm']);
  });

  it('carry what they need and nothing of the repository: the CLI depends on better-sqlite3 and pg only', () => {
    const cli = JSON.parse(readFileSync(join(project, 'node_modules', 'socialpub', 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(cli.bin).toEqual({ socialpub: 'dist/cli.js' });
    // pg: node-postgres, loaded by the PostgreSQL connection's worker thread (resolved at run time, not bundled).
    expect(Object.keys(cli.dependencies as object)).toEqual(['better-sqlite3', 'pg']);
    const sdk = JSON.parse(readFileSync(join(project, 'node_modules', '@socialpub', 'sdk', 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(sdk.sideEffects).toBe(false);
    expect(JSON.stringify(sdk.exports)).not.toContain('src/');
    // The READMEs' relative links lead to files the packages carry.
    for (const pkg of ['socialpub', '@socialpub/sdk']) {
      const dir = join(project, 'node_modules', pkg);
      const links = [...readFileSync(join(dir, 'README.md'), 'utf8').matchAll(/\]\((\.\/[^)#]+)/g)].map((m) => m[1] as string);
      expect(links.length).toBeGreaterThan(0);
      for (const link of links) expect(readFileSync(join(dir, link), 'utf8').length, `${pkg}: ${link}`).toBeGreaterThan(0);
    }
  });

  it('give a working socialpub command, installed globally and into a project', async () => {
    const global = await execa(join(prefix, 'bin', 'socialpub'), ['--version'], { env, extendEnv: false });
    expect(global.stdout).toBe('0.1.0');
    const local = await execa('npm', ['exec', '--', 'socialpub', '--version'], { cwd: project, env, extendEnv: false });
    expect(local.stdout).toBe('0.1.0');
  });

  it('run the daemon from the installed CLI, and the SDK (ESM, CommonJS, TypeScript) talks to it', async () => {
    const sp = (...args: string[]) => execa(join(project, 'node_modules', '.bin', 'socialpub'), args, { cwd: project, env, extendEnv: false });
    const up = JSON.parse((await sp('up', '--port', '0', '--json')).stdout) as { url: string };
    await sp('connect', 'twitter', '--sandbox');
    const apiKey = (JSON.parse(readFileSync(join(home.configDir, 'config.json'), 'utf8')) as { 'api-key': string })['api-key'];
    const sdkEnv = { ...env, SOCIALPUB_BASE_URL: up.url, SOCIALPUB_API_KEY: apiKey };

    writeFileSync(
      join(project, 'publish.mjs'),
      `import { SocialPub } from '@socialpub/sdk';
const client = new SocialPub();
const job = await client.content.publish({ caption: 'hello from an installed SDK', platforms: ['twitter'], publish_now: true });
const done = await client.scheduled.waitUntilDone(job.job_id, { interval: 100 });
console.log(JSON.stringify({ status: done.status, url: done.targets[0].post_url }));
`,
    );
    const esm = JSON.parse((await execa(node, ['publish.mjs'], { cwd: project, env: sdkEnv, extendEnv: false })).stdout) as { status: string; url: string };
    expect(esm.status).toBe('published');
    expect(esm.url).toMatch(/^https:\/\/x\.com\/\S+\/status\/\d+$/);

    writeFileSync(
      join(project, 'list.cjs'),
      `const { SocialPub, NotFoundError } = require('@socialpub/sdk');
(async () => {
  const client = new SocialPub();
  const page = await client.scheduled.list({ status: 'published' });
  const missing = await client.scheduled.get('job_nope').catch((e) => e instanceof NotFoundError);
  console.log(JSON.stringify({ published: page.posts.length, missing }));
})();
`,
    );
    const cjs = JSON.parse((await execa(node, ['list.cjs'], { cwd: project, env: sdkEnv, extendEnv: false })).stdout) as { published: number; missing: boolean };
    expect(cjs).toEqual({ published: 1, missing: true });

    // Types resolve under node16 (from ESM and from CommonJS) and bundler resolution; a wrong call is an error.
    writeFileSync(join(project, 'typed.mts'), `import { SocialPub, type Post } from '@socialpub/sdk';\nconst p: Promise<{ post: Post }> = new SocialPub().scheduled.get('job_x');\nvoid p;\n`);
    writeFileSync(join(project, 'typed.cts'), `import sdk = require('@socialpub/sdk');\nconst c: sdk.SocialPub = new sdk.SocialPub();\nvoid c.platforms.list();\n`);
    writeFileSync(join(project, 'wrong.mts'), `import { SocialPub } from '@socialpub/sdk';\nvoid new SocialPub().scheduled.get(42);\n`);
    const tsc = (module: string, resolution: string, files: string[]) =>
      execa(node, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '--strict', '--types', 'node', '--typeRoots', join(root, 'node_modules', '@types'), '--module', module, '--moduleResolution', resolution, ...files], { cwd: project, reject: false });
    for (const [module, resolution, files] of [
      ['node16', 'node16', ['typed.mts', 'typed.cts']],
      ['esnext', 'bundler', ['typed.mts']],
    ] as const) {
      const r = await tsc(module, resolution, [...files]);
      expect(r.exitCode, `${resolution}: ${r.stdout}`).toBe(0);
    }
    const wrong = await tsc('node16', 'node16', ['wrong.mts']);
    expect(wrong.stdout).toContain("Argument of type 'number' is not assignable to parameter of type 'string'");

    await sp('down');
  }, 180_000);
});
