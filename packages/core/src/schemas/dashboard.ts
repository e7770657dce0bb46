import { z } from 'zod';
import { ConnectionPauseSchema } from './account';
import { InstantOut, KeyScopeSchema, PlatformId } from './common';
import { PostSchema, UpdateResponseSchema } from './scheduled';

// The dashboard's extensions of the API (docs/api.md, "Dashboard extensions"): sessions,
// API keys, connections and review links.

export const DashboardSessionSchema = z
  .object({
    user: z.object({ id: z.string(), email: z.string() }),
    csrf_token: z.string().meta({ description: 'Send it as X-CSRF-Token on every unsafe request made with the session cookie.' }),
    expires_at: InstantOut,
  })
  .meta({ id: 'DashboardSession', description: 'GET /auth/session: the signed-in user of the sp_session cookie.' });
export type DashboardSession = z.infer<typeof DashboardSessionSchema>;

export const ApiKeyListingSchema = z
  .object({
    id: z.string().meta({ example: 'key_0123456789abcdefghij' }),
    name: z.string().nullable(),
    prefix: z.string().meta({ description: 'The first characters of the key, to recognise it.' }),
    created_at: InstantOut,
    last_used_at: InstantOut.nullable(),
    scope: KeyScopeSchema,
  })
  .meta({ id: 'ApiKey', description: 'An active API key of the caller (never its secret).' });
export type ApiKeyListing = z.infer<typeof ApiKeyListingSchema>;

export const ApiKeyListSchema = z.object({ data: z.array(ApiKeyListingSchema) }).meta({ id: 'ApiKeyList' });
export type ApiKeyList = z.infer<typeof ApiKeyListSchema>;

export const ApiKeyCreateRequestSchema = z
  .object({
    name: z.string().min(1).max(100).nullable().optional(),
    scope: KeyScopeSchema.optional().meta({ description: 'What the key may do (default full).' }),
  })
  .meta({ id: 'ApiKeyCreateRequest' });
export type ApiKeyCreateRequest = z.infer<typeof ApiKeyCreateRequestSchema>;

export const ApiKeyCreatedSchema = ApiKeyListingSchema.extend({
  key: z.string().meta({ description: 'The full key: shown in this answer only (only its hash is stored).' }),
  replaced: z.string().optional().meta({ description: 'Rotation: the key this one replaces (it no longer works).' }),
}).meta({ id: 'ApiKeyCreated' });
export type ApiKeyCreated = z.infer<typeof ApiKeyCreatedSchema>;

export const ConnectionSchema = z
  .object({
    id: z.string().meta({ example: 'con_0123456789abcdefghij' }),
    platform: PlatformId,
    // Several accounts per platform (issue 39): always sent; optional in the type for older fixtures.
    label: z.string().optional().meta({ description: 'The account\'s label, unique among your accounts of the platform: `platform:label` names it in platforms.', example: 'brand' }),
    is_default: z.boolean().optional().meta({ description: 'The account a bare platform name in platforms means (one per platform).' }),
    name: z.string().nullable().meta({ description: 'The page name, else the account name or id.' }),
    status: z.enum(['active', 'expired']),
    status_reason: z.string().nullable(),
    sandbox: z.boolean(),
    account_id: z.string().nullable(),
    account_name: z.string().nullable(),
    page_id: z.string().nullable(),
    page_name: z.string().nullable(),
    sandbox_password: z.string().nullable().optional().meta({
      description: "Sandbox connections only: the connection's own password for the simulator's sign-in (Bluesky createSession with the account_id or the account's handle). Shown to the connection's owner only, with a full key or a dashboard session (not to read or agent keys); null for a connection made before sandbox passwords.",
    }),
    token_expires_at: InstantOut.nullable(),
    paused: ConnectionPauseSchema.nullable(),
    created_at: InstantOut,
    updated_at: InstantOut,
  })
  .meta({ id: 'Connection', description: 'One platform connection of the caller.' });
export type Connection = z.infer<typeof ConnectionSchema>;

export const ConnectionListSchema = z.object({ data: z.array(ConnectionSchema) }).meta({ id: 'ConnectionList' });
export type ConnectionList = z.infer<typeof ConnectionListSchema>;

export const ConnectAuthorizeRequestSchema = z
  .object({
    client_id: z.string().min(1).optional().meta({ description: "Your app's id (Meta app id, X client id, TikTok client key, Google client id); required except on Bluesky and Mastodon." }),
    client_secret: z.string().optional(),
    login: z.enum(['instagram', 'facebook']).optional().meta({ description: 'instagram only: Instagram Login (default) or through a Facebook page.' }),
    audited: z.boolean().optional().meta({ description: 'tiktok: the app passed TikTok’s audit.' }),
    privacy_level: z.string().optional().meta({ description: 'tiktok: a fixed privacy level.' }),
    handle: z.string().optional().meta({ description: 'bluesky: the account handle (alice.bsky.social, or a custom domain).' }),
    app_password: z.string().optional().meta({ description: 'bluesky: an app password (Settings > Privacy and security > App passwords); kept sealed, never shown again.' }),
    server: z.string().optional().meta({ description: 'mastodon: the server the account lives on (https://mastodon.social); socialpub registers its own app there.' }),
    label: z.string().optional().meta({ description: "The account's label (1-32 of a-z, 0-9, - and _): another account of the platform, or the one of that label connected again. Left out: the platform's default account.", example: 'brand' }),
  })
  .meta({ id: 'ConnectAuthorizeRequest' });
export type ConnectAuthorizeRequest = z.infer<typeof ConnectAuthorizeRequestSchema>;

export const PendingConnectSchema = z
  .object({
    id: z.string().meta({ example: 'pcn_0123456789abcdef01234567' }),
    platform: PlatformId,
    status: z.enum(['authorizing', 'choosing', 'connected', 'failed']),
    authorize_url: z.string().nullable().meta({ description: "The platform's consent page: send the browser there." }),
    redirect_uri: z.string().meta({ description: "The daemon's /connect/callback: the app must list it as a redirect URI." }),
    question: z.string().nullable(),
    choices: z.array(z.object({ id: z.string(), label: z.string() })).nullable().meta({ description: 'While choosing: what POST …/choose takes (Facebook: the pages).' }),
    // Added with several accounts per network: always sent; optional in the type for older fixtures.
    multiple: z.boolean().optional().meta({ description: 'While choosing: several choices may be taken (page_ids), each becoming an account of its own (Facebook pages, LinkedIn authors).' }),
    connection: ConnectionSchema.nullable(),
    connections: z.array(ConnectionSchema).optional().meta({ description: 'Every account the connect saved (several pages chosen: one each); the first is `connection`.' }),
    error: z.string().nullable(),
    messages: z.array(z.string()),
    expires_at: InstantOut,
    pending_id: z.string().optional().meta({ description: 'Same as id (the authorize answer).' }),
  })
  .meta({ id: 'PendingConnect', description: 'A live connect started from the dashboard (10 minutes).' });
export type PendingConnect = z.infer<typeof PendingConnectSchema>;

export const ReviewLinkCreateRequestSchema = z
  .object({
    job_ids: z.array(z.string()).min(1).max(100),
    expires_in_hours: z.number().positive().max(720).optional().meta({ description: 'Default 72.' }),
  })
  .meta({ id: 'ReviewLinkCreateRequest' });
export type ReviewLinkCreateRequest = z.infer<typeof ReviewLinkCreateRequestSchema>;

export const ReviewLinkSchema = z
  .object({
    id: z.string().meta({ example: 'rvl_0123456789abcdefghij' }),
    job_ids: z.array(z.string()),
    created_at: InstantOut,
    expires_at: InstantOut,
    revoked_at: InstantOut.nullable(),
    status: z.enum(['active', 'expired', 'revoked']),
  })
  .meta({ id: 'ReviewLink', description: 'A review link (its token is never listed).' });
export type ReviewLink = z.infer<typeof ReviewLinkSchema>;

export const ReviewLinkCreatedSchema = ReviewLinkSchema.extend({
  url: z.string().meta({ description: 'The absolute link `{base}/r/{token}`: shown in this answer only.' }),
}).meta({ id: 'ReviewLinkCreated' });
export type ReviewLinkCreated = z.infer<typeof ReviewLinkCreatedSchema>;

export const ReviewLinkListSchema = z
  .object({
    data: z.array(ReviewLinkSchema),
    next_cursor: z.string().nullable().meta({ description: 'Pass as `cursor` for the next page; null on the last page.' }),
  })
  .meta({ id: 'ReviewLinkList' });

/** GET /review-links: pages of `limit` links, newest first. */
export const REVIEW_LINKS_LIMIT_DEFAULT = 50;
export const REVIEW_LINKS_LIMIT_MAX = 200;
export const ReviewLinksQuerySchema = z.strictObject({
  limit: z.coerce
    .number({ error: 'limit must be a whole number' })
    .int({ error: 'limit must be a whole number' })
    .min(1, { error: 'limit must be at least 1' })
    .max(REVIEW_LINKS_LIMIT_MAX, { error: `limit must be at most ${REVIEW_LINKS_LIMIT_MAX}` })
    .default(REVIEW_LINKS_LIMIT_DEFAULT),
  cursor: z.string().min(1).optional().meta({ description: 'The `next_cursor` of the page before.' }),
});
export type ReviewLinksQuery = z.infer<typeof ReviewLinksQuerySchema>;
export type ReviewLinkList = z.infer<typeof ReviewLinkListSchema>;

/** What a review link's reviewer may decide. */
export const REVIEW_DECISIONS = ['approve', 'reject', 'request_changes'] as const;
export type ReviewDecisionKind = (typeof REVIEW_DECISIONS)[number];

export const ReviewDecisionSchema = z
  .object({ job_id: z.string(), decision: z.enum(REVIEW_DECISIONS), comment: z.string().nullable(), decided_at: InstantOut })
  .meta({ id: 'ReviewDecision' });
export type ReviewDecision = z.infer<typeof ReviewDecisionSchema>;

export const ReviewLinkPublicSchema = z
  .object({ expires_at: InstantOut, posts: z.array(PostSchema), decisions: z.array(ReviewDecisionSchema) })
  .meta({ id: 'ReviewLinkPublic', description: "What a review link's token reads: its posts (as GET /content/scheduled shows them) and the decisions made." });
export type ReviewLinkPublic = z.infer<typeof ReviewLinkPublicSchema>;

export const ReviewDecisionRequestSchema = z
  .object({
    job_id: z.string(),
    decision: z.enum(REVIEW_DECISIONS).meta({ description: 'request_changes needs a comment (what should change).' }),
    comment: z.string().max(2000).nullable().optional(),
    version: z.number().int().min(1).meta({ description: 'The post\'s `version` as the reviewer saw it (from the link\'s GET): refused with 409 conflict when the post was edited since.' }),
  })
  .meta({ id: 'ReviewDecisionRequest' });
export type ReviewDecisionRequest = z.infer<typeof ReviewDecisionRequestSchema>;

/** The answer to a decision: the updated job, as POST /content/scheduled/approve answers. */
export const ReviewDecisionResponseSchema = UpdateResponseSchema;
