import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { ROUTES as CORE_ROUTES, API_PREFIX, type RouteTable } from '@socialpub/core';
import { SDK_ROUTE_FIELDS, cheapVariadicCheckInCommander, lightRoutesForSdk } from '../../../scripts/cli-chunks';

// The esbuild plugins scripts/cli-chunks.ts builds the CLI with to cut its start-up
// (docs/architecture.md, "Start-up"): each must leave behaviour as it was.
const work = mkdtempSync(join(tmpdir(), 'socialpub-build-plugins-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const cliDir = fileURLToPath(new URL('..', import.meta.url));
const coreIndex = fileURLToPath(new URL('../../core/src/index.ts', import.meta.url));

/** Bundles `entry` (CommonJS) with the plugins and runs it; returns its exports and text. */
async function bundle(entry: string, plugins: Plugin[], name: string): Promise<{ exports: Record<string, unknown>; text: string }> {
  const outfile = join(work, `${name}.cjs`);
  const result = await build({ entryPoints: [entry], outfile, bundle: true, format: 'cjs', platform: 'node', target: 'node22', plugins, write: false, logLevel: 'silent', alias: { '@socialpub/core': coreIndex }, absWorkingDir: cliDir, nodePaths: [join(cliDir, 'node_modules')] });
  const text = result.outputFiles[0]?.text ?? '';
  writeFileSync(outfile, text);
  return { exports: createRequire(import.meta.url)(outfile) as Record<string, unknown>, text };
}

describe("commander's variadic check", () => {
  const flags = ['--tag <tag...>', '--tags [tag...]', '-t, --tag <value>', '--all', '--no-color', '--x <...>', '--é <é...>', '--a <b...c>', '--a <b..>', '--list <item...>  '];
  const probe = join(work, 'variadic.mjs');
  writeFileSync(probe, `import { Option } from 'commander';\nexport const variadic = ${JSON.stringify(flags)}.map((f) => new Option(f).variadic);\n`);

  it('tells variadic flags as commander does, testing the plain suffix before compiling the Unicode regex', async () => {
    const patched = await bundle(probe, [cheapVariadicCheckInCommander], 'variadic-patched');
    const plain = await bundle(probe, [], 'variadic-plain');
    expect(patched.exports.variadic).toEqual(plain.exports.variadic);
    expect(plain.exports.variadic).toEqual([true, true, false, false, false, false, true, false, false, false]);
    expect(patched.text).toMatch(/this\.variadic = \/\\\.\\\.\\\.\[>\\\]\]\$\/\.test\(flags\) && /);
    expect(plain.text).not.toMatch(/this\.variadic = \/\\\.\\\.\\\./);
  });
});

describe("the SDK's route table in the CLI", () => {
  // A module the plugin takes for one of the SDK's (it rewrites their import of ROUTES).
  const probe = join(work, 'packages', 'sdk', 'src', 'probe.ts');
  mkdirSync(dirname(probe), { recursive: true });
  writeFileSync(probe, "import { API_PREFIX, ROUTES, fillPath } from '@socialpub/core';\nexport { API_PREFIX, ROUTES, fillPath };\n");

  it("keeps what the SDK's transport reads of every route (method, path, auth, retry safety, answers' schema keys) and none of the OpenAPI texts", async () => {
    const { exports, text } = await bundle(probe, [lightRoutesForSdk], 'routes');
    const light = exports.ROUTES as Record<string, Record<string, unknown>>;
    expect(Object.keys(light)).toEqual(Object.keys(CORE_ROUTES));
    for (const [name, decl] of Object.entries(CORE_ROUTES as RouteTable)) {
      const want: Record<string, unknown> = { name: decl.name, method: decl.method, path: decl.path, auth: decl.auth, responses: Object.fromEntries(Object.entries(decl.responses).map(([status, r]) => [status, { schema: r.schema }])) };
      for (const field of ['root', 'readOnly', 'idempotent'] as const) if (decl[field] !== undefined) want[field] = decl[field];
      expect(light[name], name).toEqual(want);
    }
    expect(light['scheduled.list']).toMatchObject({ method: 'GET', path: '/content/scheduled' });
    // Everything else comes from core as it is.
    expect(exports.API_PREFIX).toBe(API_PREFIX);
    expect((exports.fillPath as (p: string, v: Record<string, string>) => string)('/events/{id}', { id: 'a b' })).toBe('/events/a%20b');
    expect(text).not.toContain(CORE_ROUTES['scheduled.list'].summary);
  });

  it('keeps every field the SDK reads of a route (a new one read must be kept too)', () => {
    const sdkSrc = fileURLToPath(new URL('../../sdk/src/', import.meta.url));
    const read = new Set<string>();
    for (const file of readdirSync(sdkSrc, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'))) {
      const text = readFileSync(join(sdkSrc, file), 'utf8');
      for (const m of text.matchAll(/\broute\??\.(\w+)|ROUTES(?:\[[^\]]+\]|\.\w+)\.(\w+)/g)) read.add((m[1] ?? m[2]) as string);
    }
    expect(read.size).toBeGreaterThan(5);
    const kept = new Set<string>([...SDK_ROUTE_FIELDS, 'responses']);
    expect([...read].filter((field) => !kept.has(field))).toEqual([]);
  });
});
