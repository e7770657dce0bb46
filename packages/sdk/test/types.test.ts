import { fileURLToPath } from 'node:url';
import { SocialPub, type AccountKey, type PublishParams, type PublishResult } from '@socialpub/sdk';
import ts from 'typescript';
import { beforeAll, describe, expect, expectTypeOf, it } from 'vitest';

const client = new SocialPub({ baseUrl: 'http://127.0.0.1:9', apiKey: 'sp_a_b' });

/** Never called: checked by `tsc` (the typecheck covers packages/*\/test), where each marked line must fail. */
export function compileOnly(): void {
  // @ts-expect-error a misspelt field is not part of the request
  void client.content.publish({ captoin: 'hello', platforms: ['twitter'], publish_now: true });
  // @ts-expect-error an unknown platform
  void client.content.publish({ caption: 'hello', platforms: ['myspace'], publish_now: true });
  // @ts-expect-error a content type no platform has
  void client.content.publish({ caption: 'hello', platforms: ['instagram'], platform_types: { instagram: ['reel'] }, scheduled_for: '2026-12-25T10:00:00Z' });
  // @ts-expect-error a caption for an unknown platform
  void client.content.publish({ caption: 'hello', platforms: ['twitter'], platform_captions: { twiter: 'x' }, publish_now: true });
  // @ts-expect-error caption is required
  void client.content.publish({ platforms: ['twitter'], publish_now: true });
  // @ts-expect-error Instagram collaborators are a list of usernames
  void client.content.publish({ caption: 'c', platforms: ['instagram'], publish_now: true, platform_options: { instagram: { collaborators: 'natgeo' } } });
  // @ts-expect-error a reply_control Threads does not have
  void client.content.publish({ caption: 'c', platforms: ['threads'], publish_now: true, platform_options: { threads: { reply_control: 'nobody' } } });
  // Typed options of the Meta platforms compile.
  void client.content.publish({
    caption: 'c', platforms: ['instagram', 'facebook', 'threads'], media_urls: ['https://cdn.example.com/a.jpg'], publish_now: true,
    platform_options: { instagram: { user_tags: [{ username: 'natgeo', x: 0.5, y: 0.5 }], alt_text: 'A pier' }, facebook: { place: '1' }, threads: { topic_tag: 'News' } },
  });
  // Pinterest's options and content types compile; a cover of the wrong type does not.
  void client.content.publish({
    caption: 'c', platforms: ['pinterest'], platform_types: { pinterest: ['video_pin'] }, media_urls: ['https://cdn.example.com/v.mp4'], publish_now: true,
    platform_options: { pinterest: { board_id: '549755885175', title: 'Linen', link: 'https://shop.example/', alt_text: 'Shirts', cover_key_frame_sec: 3 } },
  });
  // @ts-expect-error cover_key_frame_sec is a number of seconds
  void client.content.publish({ caption: 'c', platforms: ['pinterest'], publish_now: true, platform_options: { pinterest: { cover_key_frame_sec: '3s' } } });
  // @ts-expect-error Pinterest takes no dominant colour from socialpub
  void client.content.publish({ caption: 'c', platforms: ['pinterest'], publish_now: true, platform_options: { pinterest: { dominant_color: '#fff' } } });
  // @ts-expect-error a type_schedule key that is no type, platform or platform.type
  void client.content.publish({ caption: 'c', platforms: ['instagram'], scheduled_for: '2026-12-25T10:00:00Z', type_schedule: { stroy: '+1h' } });
  // @ts-expect-error an unknown list status
  void client.scheduled.list({ status: 'done' });
}

/**
 * Compiles each snippet (as a file next to this one) in one program with the repo's compiler
 * options, and returns each snippet's diagnostics.
 */
function diagnose(sources: Record<string, string>): Record<string, string[]> {
  const dir = fileURLToPath(new URL('.', import.meta.url));
  const files = new Map(Object.entries(sources).map(([name, text]) => [`${dir}__${name}__.ts`, `${header}${text}\n`]));
  const configPath = fileURLToPath(new URL('../../../tsconfig.json', import.meta.url));
  const config = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  if (!config) throw new Error('cannot read tsconfig.json');
  const host = ts.createCompilerHost(config.options);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (name) => files.get(name) ?? readFile(name);
  host.fileExists = (name) => files.has(name) || ts.sys.fileExists(name);
  host.getSourceFile = (name, lang, ...rest) => {
    const text = files.get(name);
    return text === undefined ? getSourceFile(name, lang, ...rest) : ts.createSourceFile(name, text, lang);
  };
  const program = ts.createProgram([...files.keys()], config.options, host);
  const diagnostics = ts.getPreEmitDiagnostics(program);
  return Object.fromEntries(
    Object.keys(sources).map((name) => [
      name,
      diagnostics.filter((d) => d.file?.fileName === `${dir}__${name}__.ts`).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')),
    ]),
  );
}

const header = `import { SocialPub } from '../src/index';\nconst client = new SocialPub();\n`;

let results: Record<string, string[]> = {};
beforeAll(() => {
  results = diagnose({
    correct: `void client.content.publish({ caption: 'c', platforms: ['instagram', 'twitter'], platform_types: { instagram: ['story', 'feed'] }, platform_captions: { twitter: 't' }, scheduled_for: '2026-12-25T10:00:00Z', type_schedule: { story: '+0h', 'instagram.feed': '+1h', twitter: '+2h' } });`,
    wrongField: `void client.content.publish({ captoin: 'hello', platforms: ['twitter'], publish_now: true });`,
    wrongPlatform: `void client.content.publish({ caption: 'hello', platforms: ['myspace'], publish_now: true });`,
  });
});

describe('request types', () => {
  it('types a publish call with its request and result from core', () => {
    expectTypeOf(client.content.publish).parameter(0).toEqualTypeOf<PublishParams>();
    expectTypeOf(client.content.publish).returns.resolves.toEqualTypeOf<PublishResult>();
    // A network (its default account) or one of the user's accounts of it: `twitter:brand`.
    expectTypeOf<PublishParams['platforms']>().toEqualTypeOf<AccountKey[]>();
    expectTypeOf(compileOnly).toBeFunction();
  });

  it('accepts a correct publish request without complaint', () => {
    expect(results.correct).toEqual([]);
  });

  it('makes a wrong field name in content.publish() a compile error', () => {
    expect(results.wrongField?.join('\n')).toMatch(/'captoin' does not exist in type/);
  });

  it('makes a wrong platform in content.publish() a compile error', () => {
    expect(results.wrongPlatform?.join('\n')).toMatch(/"myspace"' is not assignable to type/);
  });
});
