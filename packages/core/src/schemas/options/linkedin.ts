import { z } from 'zod';

/** Who sees a LinkedIn post (the Posts API's `visibility`): CONNECTIONS is for members only. */
export const LINKEDIN_VISIBILITIES = ['PUBLIC', 'CONNECTIONS', 'LOGGED_IN'] as const;
export type LinkedinVisibility = (typeof LINKEDIN_VISIBILITIES)[number];

/** A document post's title (content.media.title) and a mention's name: LinkedIn documents no limit; 400 keeps them readable. */
export const LINKEDIN_TITLE_MAX = 400;

/** An organization by its numeric id or its URN (`urn:li:organization:<id>`). */
export const LINKEDIN_ORGANIZATION = /^(?:urn:li:organization:)?[0-9]{1,19}$/;

const organization = (field: string) =>
  z.string().trim().regex(LINKEDIN_ORGANIZATION, { error: `${field} is an organization id (digits) or urn:li:organization:<id>` });

export const LinkedinMentionSchema = z
  .strictObject({
    name: z
      .string()
      .trim()
      .min(1, { error: 'a mention names the organization as the caption writes it' })
      .max(LINKEDIN_TITLE_MAX, { error: `a mention's name is at most ${LINKEDIN_TITLE_MAX} characters` })
      .meta({ description: 'name: the organization\'s name exactly as LinkedIn shows it; the caption must contain "@" followed by it (the first such place becomes the mention).' }),
    organization: organization('mentions.organization').meta({ description: 'organization: the mentioned organization\'s id or URN.' }),
  })
  .meta({ description: 'A mention of an organization: "@<name>" in the caption links to it.' });

export const LinkedinOptionsSchema = z
  .strictObject({
    visibility: z
      .enum(LINKEDIN_VISIBILITIES)
      .optional()
      .meta({ description: 'visibility: PUBLIC (default), CONNECTIONS (a member\'s 1st-degree connections; not for organizations) or LOGGED_IN (signed-in members only).' }),
    organization: organization('organization')
      .optional()
      .meta({
        description:
          'organization: post as this organization (its id or URN) instead of the connection\'s author; the member must administer it. Default: the author chosen at connect time (the member, or the organization picked with --organization).',
      }),
    document_title: z
      .string()
      .trim()
      .min(1, { error: 'document_title must not be empty' })
      .max(LINKEDIN_TITLE_MAX, { error: `document_title is at most ${LINKEDIN_TITLE_MAX} characters` })
      .optional()
      .meta({ description: 'document_title: the title shown on a document post (type document; required there).' }),
    mentions: z
      .array(LinkedinMentionSchema)
      .max(20, { error: 'at most 20 mentions' })
      .optional()
      .meta({ description: 'mentions: organizations mentioned in the caption, each written there as "@<name>".' }),
  })
  .meta({ id: 'LinkedinOptions', description: 'LinkedIn post options (POST /rest/posts).' });
export type LinkedinOptions = z.infer<typeof LinkedinOptionsSchema>;
