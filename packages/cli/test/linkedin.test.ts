import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestDaemon } from './daemon-harness';
import { JPEG } from './media-samples';

const t = useTestDaemon({ connect: ['linkedin'] });

interface SandboxPosts {
  posts: { platform: string; kind: string; post_url: string; body: { text?: string; title?: string; media?: Array<{ kind: string; type: string }> } }[];
}

describe('socialpub with linkedin through the sandbox', () => {
  it('publishes an image post with --now --wait, its reserved characters exactly as written', async () => {
    const file = join(t.root, 'launch.jpg');
    writeFileSync(file, JPEG);
    const caption = 'Launch (v2) [beta] {json} <3 @you | ~ _x_ *y* #launch \\ #';
    const r = await t.run(['publish', caption, '-p', 'linkedin', '--media', file, '--now', '--wait']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toMatch(/^https:\/\/www\.linkedin\.com\/feed\/update\/urn:li:share:\d+\/$/);
    expect(r.stderr).toMatch(/✔ linkedin\.post: published https:\/\/www\.linkedin\.com\//);
    const posts = (await t.run('sandbox posts --platform linkedin --json')).json<SandboxPosts>();
    expect(posts.posts.at(-1)).toMatchObject({ platform: 'linkedin', kind: 'image', post_url: r.stdout.trim(), body: { text: caption, media: [{ kind: 'image', type: 'image/jpeg' }] } });
  });

  it('publishes a PDF document post with its title', async () => {
    const file = join(t.root, 'q3.pdf');
    writeFileSync(file, Buffer.concat([Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1'), Buffer.alloc(2000, 0x20), Buffer.from('\n%%EOF\n', 'latin1')]));
    const r = await t.run(['publish', 'Our quarter in ten pages', '-p', 'linkedin', '--type', 'linkedin=document', '--media', file, '--option', 'linkedin.document_title=Q3 in numbers', '--now', '--wait', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json<{ status: string; targets: { type: string; status: string }[] }>()).toMatchObject({ status: 'published', targets: [{ type: 'document', status: 'published' }] });
    const posts = (await t.run('sandbox posts --platform linkedin --json')).json<SandboxPosts>();
    expect(posts.posts.at(-1)).toMatchObject({ kind: 'document', body: { text: 'Our quarter in ten pages', title: 'Q3 in numbers', media: [{ kind: 'document', type: 'application/pdf' }] } });
  });

  it('refuses a caption over 3,000 characters and an unknown organization (exit 2), naming the field', async () => {
    const long = await t.run(['publish', 'x'.repeat(3001), '-p', 'linkedin', '--now', '--json']);
    expect(long.code).toBe(2);
    expect(JSON.stringify(long.json())).toContain('"path":"caption"');
    const org = await t.run(['publish', 'as a stranger', '-p', 'linkedin', '--option', 'linkedin.organization=123', '--now', '--json']);
    expect(org.code).toBe(2);
    expect(JSON.stringify(org.json())).toContain('platform_options.linkedin.organization');
    expect((await t.run('schedule list --json')).stdout).not.toContain('as a stranger');
  });

  it('lists the LinkedIn hosts among the sandbox endpoints, and the API version in platforms', async () => {
    const endpoints = (await t.run('sandbox endpoints --json')).json<{ endpoints: Record<string, string> }>();
    expect(endpoints.endpoints['api.linkedin.com']).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(endpoints.endpoints['www.linkedin.com']).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const platforms = (await t.run('platforms --json')).json<Array<{ platform: string; api_version?: { version: string; source: string } }>>();
    const li = platforms.find((p) => p.platform === 'linkedin')!;
    expect(li.api_version).toMatchObject({ version: expect.stringMatching(/^20\d{4}$/), source: 'default' });
    expect((await t.run('platforms')).stdout).toContain(`linkedin API version ${li.api_version!.version} (default; pin with SOCIALPUB_LINKEDIN_VERSION)`);
  });
});
