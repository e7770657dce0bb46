import { z } from 'zod';
import { InstantOut } from './common';

/** Drafts one user keeps at most. */
export const MAX_DRAFTS = 100;
/** Largest draft content, as JSON text. */
export const MAX_DRAFT_BYTES = 64 * 1024;

const DraftContentSchema = z
  .record(z.string(), z.unknown(), { error: 'content is a JSON object' })
  .refine((v) => JSON.stringify(v).length <= MAX_DRAFT_BYTES, { error: `content is at most ${MAX_DRAFT_BYTES / 1024} KB of JSON` })
  .meta({ description: "What the Compose form holds (the dashboard's own fields: caption, platforms, options, media, time); kept as given, checked only when it is published." });

export const DraftRequestSchema = z.strictObject({ content: DraftContentSchema }).meta({ id: 'DraftRequest' });
export type DraftRequest = z.infer<typeof DraftRequestSchema>;

export const DraftSchema = z
  .object({ id: z.string().meta({ example: 'drf_0123456789abcdefghij' }), content: z.record(z.string(), z.unknown()), created_at: InstantOut, updated_at: InstantOut })
  .meta({ id: 'Draft', description: 'A post being written, saved as it is typed.' });
export type Draft = z.infer<typeof DraftSchema>;

export const DraftAnswerSchema = z.object({ success: z.literal(true), draft: DraftSchema }).meta({ id: 'DraftAnswer' });
export type DraftAnswer = z.infer<typeof DraftAnswerSchema>;

export const DraftListSchema = z
  .object({ success: z.literal(true), drafts: z.array(DraftSchema) })
  .meta({ id: 'DraftList', description: `The caller's drafts, the most recently changed first (at most ${MAX_DRAFTS}).` });
export type DraftList = z.infer<typeof DraftListSchema>;
