import { describe, expect, it } from 'vitest';
import { defaultVersion, LinkedinVersions, monthVersion, newerCandidates } from '../../../src/platforms/linkedin/api-version';
import { renderLittleText, toCommentary } from '../../../src/platforms/linkedin/little-text';
import { readCommentary } from '../../../src/platforms/linkedin/sim/sim-text';
import { validateLinkedin } from '../../../src/platforms/linkedin/validate';
import { platformsFromEnv } from '../../../src/config';

describe('little text', () => {
  it.each([
    ['plain words', 'plain words'],
    ['(a) [b] {c} <d> @e |f| ~g~ _h_ *i* \\j # k', '\\(a\\) \\[b\\] \\{c\\} \\<d\\> \\@e \\|f\\| \\~g\\~ \\_h\\_ \\*i\\* \\\\j \\# k'],
    ['#launch day #2026 and mid#word and #under_score', '{hashtag|\\#|launch} day {hashtag|\\#|2026} and mid\\#word and \\#under\\_score'],
    ['emoji 🎉 and accents: café', 'emoji 🎉 and accents: café'],
  ])('escapes %j so that LinkedIn shows it as written', (caption, commentary) => {
    expect(toCommentary(caption)).toBe(commentary);
    expect(renderLittleText(commentary)).toBe(caption);
    expect(readCommentary(commentary).text).toBe(caption);
  });

  it('turns "@Name" into a mention of the organization, the first unused place for each', () => {
    const c = toCommentary('@Acme (UK) and @Acme (UK) thank @Beta', [
      { name: 'Acme (UK)', organization: '1' },
      { name: 'Beta', organization: 'urn:li:organization:2' },
    ]);
    expect(c).toBe('@[Acme \\(UK\\)](urn:li:organization:1) and \\@Acme \\(UK\\) thank @[Beta](urn:li:organization:2)');
    expect(readCommentary(c)).toEqual({ text: '@Acme (UK) and @Acme (UK) thank @Beta', mentions: ['urn:li:organization:1', 'urn:li:organization:2'], hashtags: [] });
  });
});

describe('LinkedIn API version', () => {
  const nov = Date.UTC(2026, 10, 26);
  it('defaults to the version two months back, across a year boundary too', () => {
    expect(defaultVersion(nov)).toBe('202609');
    expect(monthVersion(Date.UTC(2027, 0, 3), 2)).toBe('202611');
    expect(monthVersion(Date.UTC(2027, 0, 3), 12)).toBe('202601');
  });
  it('tries the newer versions newest first after a retirement', () => {
    expect(newerCandidates('202609', nov)).toEqual(['202611', '202610']);
    expect(newerCandidates('202611', nov)).toEqual([]);
  });
  it('keeps a stepped-forward version until the date default passes it', () => {
    const v = new LinkedinVersions(null);
    v.stepForward('202609', '202610', nov);
    expect(v.current(nov)).toBe('202610');
    expect(v.current(Date.UTC(2027, 1, 1))).toBe('202612');
    expect(v.info(Date.UTC(2027, 1, 1)).source).toBe('default');
  });
  it('is pinned by SOCIALPUB_LINKEDIN_VERSION, refused at start when malformed (the setting named)', () => {
    expect(platformsFromEnv({ SOCIALPUB_LINKEDIN_VERSION: ' 202510 ' }).linkedinVersion).toBe('202510');
    expect(() => platformsFromEnv({ SOCIALPUB_LINKEDIN_VERSION: '2025-10' })).toThrow(/SOCIALPUB_LINKEDIN_VERSION must be a LinkedIn API version/);
    expect(new LinkedinVersions('202510').current(nov)).toBe('202510');
  });
});

describe('validateLinkedin', () => {
  const base = { platform: 'linkedin' as const, publicBaseUrl: null };
  it('asks a document post for its title and a PDF, and takes no PDF in a post', () => {
    const pdf = { url: 'https://x/deck.pdf', kind: 'document' as const, mimeType: 'application/pdf', size: 1000, prepared: true };
    expect(validateLinkedin({ ...base, type: 'document', caption: 'x', media: [pdf], options: {} })).toEqual([{ path: 'platform_options.linkedin.document_title', message: expect.stringContaining('needs a title') }]);
    expect(validateLinkedin({ ...base, type: 'document', caption: 'x', media: [pdf], options: { document_title: 'Deck' } })).toEqual([]);
    expect(validateLinkedin({ ...base, type: 'post', caption: 'x', media: [pdf], options: {} }).map((d) => d.path)).toEqual(['media_urls.0']);
  });
  it('refuses CONNECTIONS for an organization, a video over 500 MB and a WEBP image', () => {
    expect(validateLinkedin({ ...base, type: 'post', caption: 'x', media: [], options: { organization: '1', visibility: 'CONNECTIONS' } }).map((d) => d.path)).toEqual(['platform_options.linkedin.visibility']);
    const video = { url: 'v.mp4', kind: 'video' as const, mimeType: 'video/mp4', size: 600 * 1024 * 1024, prepared: true };
    const webp = { url: 'a.webp', kind: 'image' as const, mimeType: 'image/webp', size: 10, prepared: true };
    expect(validateLinkedin({ ...base, type: 'post', caption: 'x', media: [video], options: {} })[0]!.message).toMatch(/75 KB to 500 MB/);
    expect(validateLinkedin({ ...base, type: 'post', caption: 'x', media: [webp], options: {} })[0]!.message).toMatch(/JPEG, PNG or GIF/);
  });
});
