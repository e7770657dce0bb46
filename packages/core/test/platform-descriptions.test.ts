import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { PLATFORMS, PLATFORM_INFO, PLATFORM_OPTION_SCHEMAS, platformDescriptions, PlatformId, PlatformOptionsSchema, THREAD_PLATFORMS, COMMENT_PLATFORMS } from '../src/index';

// Each platform's description (core/src/platforms/<platform>.ts) is what the rest reads:
// its claims must hold against the options schemas and the docs it points to.
const repo = (path: string) => fileURLToPath(new URL(`../../../${path}`, import.meta.url));
const shapeOf = (platform: string) => (PLATFORM_OPTION_SCHEMAS as Record<string, z.ZodObject | undefined>)[platform]?.shape ?? {};

describe('the platform descriptions', () => {
  const descriptions = platformDescriptions();

  it('derive PLATFORMS, PLATFORM_INFO and the Platform enum', () => {
    expect([...PLATFORMS]).toEqual(descriptions.map((d) => d.id));
    expect(PLATFORMS).toEqual(['instagram', 'facebook', 'twitter', 'threads', 'tiktok', 'youtube', 'bluesky', 'mastodon', 'linkedin', 'pinterest']);
    for (const d of descriptions) expect(PLATFORM_INFO[d.id as (typeof PLATFORMS)[number]]).toBe(d.info);
    expect(PlatformId.options).toEqual([...PLATFORMS]);
    expect(Object.keys(PlatformOptionsSchema.shape).sort()).toEqual(Object.keys(PLATFORM_OPTION_SCHEMAS).sort());
    expect(THREAD_PLATFORMS).toEqual(['twitter', 'threads', 'bluesky', 'mastodon']);
    expect(COMMENT_PLATFORMS).toEqual(['instagram', 'facebook', 'twitter', 'threads', 'youtube', 'bluesky', 'mastodon', 'linkedin']);
  });

  it.each(descriptions.map((d) => [d.id, d] as const))('%s: its docs page exists and names it; its connect flags are in docs/cli.md', (_id, d) => {
    expect(existsSync(repo(d.docs.page)), d.docs.page).toBe(true);
    expect(readFileSync(repo(d.docs.page), 'utf8')).toContain(d.name);
    const cli = readFileSync(repo('docs/cli.md'), 'utf8');
    for (const flag of d.connect.flags) expect(cli, flag.flags).toContain(flag.flags.split(' ')[0]);
  });

  it.each(descriptions.map((d) => [d.id, d] as const))('%s: its --option examples and wizard questions name fields of its options schema', (id, d) => {
    const shape = shapeOf(id);
    for (const example of d.cli.optionExamples) {
      const [platform, field] = example.split(/[.=]/);
      expect(platform).toBe(id);
      expect(Object.keys(shape), example).toContain(field);
    }
    for (const q of d.cli.questions ?? []) {
      expect(Object.keys(shape), q.option).toContain(q.option);
      if (q.urlOption) expect(Object.keys(shape), q.urlOption).toContain(q.urlOption);
      for (const t of q.types ?? []) expect(d.info.types).toContain(t);
    }
  });

  it.each(descriptions.map((d) => [d.id, d] as const))('%s: follow-up rules agree with each other and the default type is one of its types', (_id, d) => {
    if (d.followUps.commentIsPost) expect(d.followUps.firstComment).toBe(true);
    if (d.followUps.refusesRepeatedText) expect(d.followUps.thread || d.followUps.firstComment).toBe(true);
    expect(d.info.types).toContain(d.info.defaultType);
    for (const t of d.info.types) expect(d.info.media[t], t).toBeTypeOf('object');
  });

  it('the how-to names every file a new platform touches', () => {
    const howTo = readFileSync(repo('docs/platforms/adding-a-platform.md'), 'utf8');
    for (const path of ['packages/core/src/platforms/registry.ts', 'packages/core/src/schemas/platform-options.ts', 'packages/daemon/src/platforms/registry.ts', 'packages/core/src/platforms/<platform>.ts', 'packages/daemon/src/platforms/<platform>/', 'docs/platforms/<platform>.md']) {
      expect(howTo).toContain(path);
      if (!path.includes('<')) expect(existsSync(repo(path)), path).toBe(true);
    }
  });
});

describe("the options in a person's words (the dashboard's forms)", () => {
  const descriptions = platformDescriptions();
  // Every option, every field of an object option and of a list of objects (poll.options, user_tags.username).
  const paths = (shape: Record<string, z.ZodType>): string[] => {
    const out: string[] = [];
    for (const [key, field] of Object.entries(shape)) {
      out.push(key);
      let inner = field as z.ZodType & { unwrap?: () => z.ZodType; element?: z.ZodType; shape?: Record<string, z.ZodType> };
      while (inner.unwrap) inner = inner.unwrap() as typeof inner;
      const obj = (inner.element as typeof inner | undefined)?.shape ?? inner.shape;
      if (obj) for (const sub of Object.keys(obj)) out.push(`${key}.${sub}`);
    }
    return out;
  };
  it.each(descriptions.map((d) => [d.id, d] as const))('%s: every option has a label, and every choice of an option a name', (id, d) => {
    const words = d.optionWords ?? {};
    const shape = shapeOf(id);
    expect(paths(shape).filter((p) => !words[p]?.label)).toEqual([]);
    let enums = 0;
    for (const [key, field] of Object.entries(shape)) {
      let inner = field as z.ZodType & { unwrap?: () => z.ZodType; element?: z.ZodType; options?: readonly string[] };
      while (inner.unwrap) inner = inner.unwrap() as typeof inner;
      const values = inner.options ?? (inner.element as typeof inner | undefined)?.options;
      if (Array.isArray(values) && values.every((v) => typeof v === 'string')) {
        enums++;
        expect(Object.keys(words[key]?.choices ?? {}).sort(), `${id}.${key}`).toEqual([...values].sort());
      }
    }
    const expected: Record<string, number> = { twitter: 1, threads: 1, tiktok: 1, youtube: 1, bluesky: 1, mastodon: 1, linkedin: 1 };
    expect(enums).toBe(expected[id] ?? 0);
  });
});
