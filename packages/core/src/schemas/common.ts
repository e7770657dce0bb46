import { z } from 'zod';
import { ERROR_STATUS } from '../errors';
import { ACCOUNT_LABEL_RULE, networkOf, parseAccountKey } from '../account-key';
import { PLATFORMS, platformIds } from '../platforms';
import { KEY_SCOPES } from '../key-scopes';
import { parseInstant } from '../time';

export const PlatformId = z.enum(platformIds()).meta({ id: 'Platform', description: 'A platform identifier.' });

/** An ISO 8601 date-time with a zone designator (Z or +hh:mm); impossible dates are refused. */
export const InstantIn = z
  .string()
  .refine((v) => parseInstant(v) !== null, { error: 'must be an ISO 8601 date-time with a zone, e.g. 2026-12-25T10:00:00Z' })
  .meta({ description: 'ISO 8601 date-time with a zone designator.', example: '2026-12-25T10:00:00Z' });

/** Times out: UTC with milliseconds and Z. */
export const InstantOut = z.string().meta({ description: 'ISO 8601 UTC with milliseconds.', example: '2026-12-25T10:00:00.000Z' });

export const KeyScopeSchema = z.enum(KEY_SCOPES).meta({
  id: 'KeyScope',
  description: "What an API key may do: `full` (everything its user may), `agent` (write posts and media, every post held for approval; no approving, taking down or account changes), `read` (only what changes nothing). docs/api.md \"Key scopes\".",
});

export const ErrorDetailSchema = z.looseObject({ path: z.string(), message: z.string() });

export const ErrorBodySchema = z
  .object({
    success: z.literal(false),
    error: z.object({
      code: z.enum(Object.keys(ERROR_STATUS) as [keyof typeof ERROR_STATUS, ...(keyof typeof ERROR_STATUS)[]]),
      message: z.string(),
      details: z.array(ErrorDetailSchema).optional(),
      retry_after: z.number().int().positive().optional(),
      request_id: z.string().optional(),
    }),
  })
  .meta({ id: 'Error', description: 'The one error body, whatever the status.' });

/** A `platforms` entry: a network (its default account) or `network:label` (one of the user's accounts of it). */
export const AccountKeySchema = z
  .union([PlatformId, z.templateLiteral([PlatformId, ':', z.string()])], {
    error: (issue) => {
      const key = typeof issue.input === 'string' ? issue.input : '';
      return typeof issue.input !== 'string' ? 'a platform must be a string' : `unknown platform ${networkOf(key)} (one of: ${PLATFORMS.join(', ')}; an account of one as network:label)`;
    },
  })
  .superRefine((key, ctx) => {
    if (!parseAccountKey(key)) ctx.addIssue({ code: 'custom', message: `${key}: ${ACCOUNT_LABEL_RULE}` });
  })
  .meta({ id: 'AccountKey', description: 'A platform (its default account), or `platform:label` for another of your accounts of it (`twitter:brand`).', example: 'twitter:brand' });
/** A `platforms` entry: `twitter` or `twitter:brand`. */
export type AccountKey = z.infer<typeof AccountKeySchema>;

