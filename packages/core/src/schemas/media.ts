import { MAX_PREPARE_URLS } from '../api-limits';
import { z } from 'zod';
import { InstantOut } from './common';

export { MAX_PREPARE_URLS };
export const MAX_MEDIA_BYTES = 500 * 1024 * 1024;
export const MEDIA_TASK_DEADLINE_MS = 10 * 60_000;
export const MEDIA_LIFETIME_MS = 24 * 3_600_000;

export const MEDIA_ERROR_CODES = Object.freeze([
  'invalid_url',
  'unsupported_scheme',
  'private_address',
  'too_many_redirects',
  'fetch_failed',
  'http_error',
  'too_large',
  'unsupported_format',
  'html_page',
  'timeout',
] as const);
export type MediaErrorCode = (typeof MEDIA_ERROR_CODES)[number];

export const PrepareRequestSchema = z
  .object({
    urls: z
      .array(z.string({ error: 'each url must be a string' }).min(1))
      .min(1, { error: 'give at least one url' })
      .max(MAX_PREPARE_URLS, { error: `at most ${MAX_PREPARE_URLS} urls` }),
  })
  .meta({ id: 'PrepareRequest' });
export type PrepareRequest = z.infer<typeof PrepareRequestSchema>;

export const PrepareResponseSchema = z
  .object({ success: z.literal(true), task_id: z.string(), message: z.string() })
  .meta({ id: 'PrepareResponse' });
export type PrepareResponse = z.infer<typeof PrepareResponseSchema>;

export const PreparedFileSchema = z
  .object({
    original_url: z.string(),
    prepared_url: z.string(),
    type: z.enum(['image', 'video', 'document']),
    mime_type: z.string(),
    size: z.number().int(),
    sha256: z.string(),
    expires_at: InstantOut,
  })
  .meta({ id: 'PreparedFile' });
export type PreparedFile = z.infer<typeof PreparedFileSchema>;

/** The most files GET /media/library answers. */
export const MEDIA_LIBRARY_MAX = 200;

export const MediaLibraryFileSchema = PreparedFileSchema.extend({
  name: z.string().meta({ description: "The file's name (an upload's file name, or the last part of the URL it was fetched from)." }),
  prepared_at: InstantOut,
}).meta({ id: 'MediaLibraryFile' });
export type MediaLibraryFile = z.infer<typeof MediaLibraryFileSchema>;

export const MediaLibrarySchema = z
  .object({ success: z.literal(true), files: z.array(MediaLibraryFileSchema) })
  .meta({ id: 'MediaLibrary', description: `The caller's prepared files still on hand (uploaded or fetched, not yet expired), newest first; at most ${MEDIA_LIBRARY_MAX}.` });
export type MediaLibrary = z.infer<typeof MediaLibrarySchema>;

export const FailedFileSchema = z
  .object({ original_url: z.string(), error: z.object({ code: z.enum(MEDIA_ERROR_CODES), message: z.string() }) })
  .meta({ id: 'FailedFile' });
export type FailedFile = z.infer<typeof FailedFileSchema>;

const Progress = z.object({ total: z.number().int(), completed: z.number().int(), failed: z.number().int() });

const CompletedTask = z.object({
  success: z.literal(true),
  task_id: z.string(),
  status: z.literal('completed'),
  progress: Progress,
  files: z.array(PreparedFileSchema),
  failed: z.array(FailedFileSchema),
});

export const MediaStatusSchema = z
  .discriminatedUnion('status', [
    z.object({ success: z.literal(true), task_id: z.string(), status: z.literal('processing'), progress: Progress }),
    CompletedTask,
    z.object({
      success: z.literal(true),
      task_id: z.string(),
      status: z.literal('failed'),
      progress: Progress,
      error: z.object({ code: z.string(), message: z.string() }),
      files: z.array(PreparedFileSchema),
      failed: z.array(FailedFileSchema),
    }),
  ])
  .meta({ id: 'MediaStatus' });
export type MediaStatus = z.infer<typeof MediaStatusSchema>;

/** Longest `?filename=` of POST /media/upload (an extension); longer names are refused. */
export const MAX_UPLOAD_FILENAME = 255;

/** Query of POST /media/upload (an extension): the body is the file's raw bytes. */
/** Path of GET /media/status/{task_id}. */
export const MediaTaskParamsSchema = z.object({ task_id: z.string() });

export const MediaUploadQuerySchema = z
  .object({
    filename: z
      .string()
      .max(MAX_UPLOAD_FILENAME, { error: `at most ${MAX_UPLOAD_FILENAME} characters` })
      .optional()
      .describe('The file\'s name; reduced to [A-Za-z0-9._-] with the extension of the format judged from the bytes.'),
  })
  .meta({ id: 'MediaUploadQuery' });
export type MediaUploadQuery = z.infer<typeof MediaUploadQuerySchema>;

/**
 * Answer of POST /media/upload (an extension): a media task already `completed` with the
 * one uploaded file, the same shape GET /media/status/{task_id} returns for it.
 */
export const MediaUploadResponseSchema = CompletedTask.meta({ id: 'MediaUploadResponse' });
export type MediaUploadResponse = z.infer<typeof MediaUploadResponseSchema>;
