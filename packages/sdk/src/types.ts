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

/** A map keyed by `platforms` entries: platforms, and accounts as `platform:label`. */
type PerAccount<V> = Partial<Record<Platform, V>> & { [account: `${Platform}:${string}`]: V };

/** A `type_schedule` key: a content type, a platform or account (`twitter:brand`), or `platform.type` / `platform:label.type` (most specific wins). */
export type TypeScheduleKey = ContentType | Platform | `${Platform}.${ContentType}`;
/**
 * A type_schedule map: its keys as TypeScheduleKey, and those of accounts (`platform:label`
 * and `platform:label.type`). The accounts' key type is written in the index signature itself:
 * the bundled declarations (dist/index.d.ts) drop an alias used only there.
 */
type TypeSchedule = Partial<Record<TypeScheduleKey, string>> & { [account: `${Platform}:${string}`]: string };

/**
 * Body of `content.publish()` / `content.validate()`: core's request schema input, with the
 * map keys narrowed to platforms and content types so a typo is a compile error.
 */
export type PublishParams = Omit<PublishRequestInput, 'platform_captions' | 'platform_types' | 'type_schedule'> & {
  /** Caption per `platforms` entry (`twitter`, `twitter:brand`); overrides `caption` for it. */
  platform_captions?: PerAccount<string> | null | undefined;
  /** Content types per `platforms` entry; one left out gets its platform's default type. */
  platform_types?: PerAccount<ContentType[]> | null | undefined;
  /** Offset (`+1h`, `+30m`, `+1h30m`) or ISO 8601 time per type, platform or `platform.type`. */
  type_schedule?: TypeSchedule | null | undefined;
};

/** Body of `scheduled.update()`. */
export type UpdateParams = Omit<z.input<typeof UpdateRequestSchema>, 'platform_captions' | 'type_schedule'> & {
  platform_captions?: PerAccount<string> | undefined;
  type_schedule?: TypeSchedule | undefined;
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
