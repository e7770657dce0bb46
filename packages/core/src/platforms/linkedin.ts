import { definePlatform, IMAGE_OR_VIDEO, mediaRule } from './description';

export const linkedin = definePlatform({
  id: 'linkedin',
  name: 'LinkedIn',
  info: {
    // post: text, 1-20 images (a multi-image post from 2) or one video; document: one PDF with a title (docs/reference/platforms.md §15).
    types: ['post', 'document'],
    defaultType: 'post',
    caption: { max: 3000, counting: 'utf16' },
    media: { post: mediaRule(0, 20, IMAGE_OR_VIDEO), document: mediaRule(1, 1, ['document']) },
    pullsMedia: false,
  },
  optionWords: {
    visibility: { label: 'Who can see it', choices: { PUBLIC: 'Anyone', CONNECTIONS: 'Connections only', LOGGED_IN: 'Signed-in LinkedIn members' } },
    organization: { label: 'Post as organization (its id)' },
    document_title: { label: 'Document title' },
    mentions: { label: 'Mentioned organizations' },
    'mentions.name': { label: 'Name, exactly as in the caption after @' },
    'mentions.organization': { label: 'Organization id' },
  },
  followUps: { thread: false, firstComment: true, commentIsPost: false, refusesRepeatedText: false },
  takedown: true,
  connect: {
    flags: [
      {
        flags: '--organization <id>',
        description: 'linkedin: post as this organization you administer (its id or urn:li:organization:<id>), or `member` to post as yourself (asked when you administer any); several, comma-separated, one account each',
        option: 'organizationId',
      },
    ],
    questions: { 'LinkedIn client id': '--client-id (the LinkedIn app client id)', 'LinkedIn client secret': '--client-secret (the LinkedIn app client secret)', 'Post to LinkedIn as?': '--organization (an organization id you administer, or member)', 'Post to LinkedIn as? (each one becomes an account)': '--organization (organization ids you administer, or member; comma-separated)' },
    pageWord: 'organization',
    examples: ['socialpub connect linkedin --client-id 86abc --client-secret s3cr3t --organization 2414183'],
  },
  cli: {
    optionExamples: ['linkedin.visibility=LOGGED_IN', 'linkedin.organization=2414183', 'linkedin.document_title="Q3 deck"'],
    questions: [
      { option: 'document_title', ask: 'LinkedIn document title:', kind: 'text', types: ['document'], captionDefault: { max: 400 }, required: 'a document post needs a title' },
    ],
  },
  mcp: {},
  docs: { page: 'docs/platforms/linkedin.md', summary: "Posts and PDF documents as a member or an organization, through LinkedIn's versioned REST API." },
});
