import type {
  ContentType,
  ListQuerySchema,
  MediaStatus,
  Platform,
  PrepareRequestSchema,
  PublishRequestInput,
  UpdateRequestSchema,
} from '@socialpub/core';
import type { z } from 'zod';
import type { RequestOptions } from './options';

/** A `type_schedule` key: a content type, a platform, or `platform.type` (most specific wins). */
export type TypeScheduleKey = ContentType | Platform | `${Platform}.${ContentType}`;

/**
 * Body of `content.publish()` / `content.validate()`: core's request schema input, with the
 * map keys narrowed to platforms and content types so a typo is a compile error.
 */
export type PublishParams = Omit<PublishRequestInput, 'platform_captions' | 'platform_types' | 'type_schedule'> & {
  /** Caption per platform; overrides `caption` for that platform. */
  platform_captions?: Partial<Record<Platform, string>> | null | undefined;
  /** Content types per platform; a platform left out gets its default type. */
  platform_types?: Partial<Record<Platform, ContentType[]>> | null | undefined;
  /** Offset (`+1h`, `+30m`, `+1h30m`) or ISO 8601 time per type, platform or `platform.type`. */
  type_schedule?: Partial<Record<TypeScheduleKey, string>> | null | undefined;
};

/** Body of `scheduled.update()`. */
export type UpdateParams = Omit<z.input<typeof UpdateRequestSchema>, 'platform_captions' | 'type_schedule'> & {
  platform_captions?: Partial<Record<Platform, string>> | undefined;
  type_schedule?: Partial<Record<TypeScheduleKey, string>> | undefined;
};

/** Query of `scheduled.list()` (core's ListQuerySchema): every field optional. */
export interface ListParams {
  /** A job status, or `all` (default). */
  status?: z.input<typeof ListQuerySchema>['status'];
  /** Posts per page, 1 to 200; default 50. */
  limit?: number | undefined;
  /** `next_cursor` of the previous page. */
  cursor?: string | undefined;
}

/** Body of `media.prepare()`. */
export type PrepareParams = z.input<typeof PrepareRequestSchema>;

/** A media task that will not change any more. */
export type SettledMediaStatus = Extract<MediaStatus, { status: 'completed' | 'failed' }>;

/**
 * What `media.upload()` sends: a file path, bytes in memory (a Buffer is a Uint8Array), or
 * a stream — a Node `Readable` or any async iterable of chunks, read once, never retried.
 * (Typed without Node's types, so the SDK's declarations need no @types/node.)
 */
export type UploadSource = string | Uint8Array | AsyncIterable<Uint8Array>;

/** Options of `media.upload()`: the request options, plus how the file is named and typed. */
export interface UploadOptions extends RequestOptions {
  /** The file's name (`?filename=`); default: the path's base name. The daemon keeps only [A-Za-z0-9._-]. */
  filename?: string | undefined;
  /** Content-Type of the body; default application/octet-stream. The daemon judges the format from the bytes anyway. */
  contentType?: string | undefined;
}
