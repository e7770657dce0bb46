import { statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { MediaUploadResponse } from '@socialpub/core';
import type { Ctx } from '../context';
import { CliError, UsageError, toFailure } from '../errors';
import { formatBytes } from '../ui/format';

/** A media argument with a scheme (http, https, s3, gs, ...) is a URL for the daemon to fetch. */
const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\//i;

/** Whether a media argument names a local file (to upload) rather than a URL for the daemon to fetch. */
export const isLocalMedia = (item: string) => !URL_LIKE.test(item) || /^file:\/\//i.test(item);

/**
 * The absolute path of a media argument that names a local file (`./photo.jpg`,
 * `file:///tmp/a.mp4`), or null for a URL. Anything else is a usage error naming it.
 */
export function localFile(ctx: Ctx, item: string, flag: string): string | null {
  if (URL_LIKE.test(item) && !/^file:\/\//i.test(item)) return null;
  const path = resolve(ctx.io.cwd, item.replace(/^file:\/\//i, ''));
  let isFile = false;
  try {
    isFile = statSync(path).isFile();
  } catch {
    // not there: reported below
  }
  if (!isFile) throw new UsageError(`${flag} "${item}" is neither a URL (https://, s3://, gs://) nor an existing file`);
  return path;
}

/**
 * Uploads a local file to the daemon (POST /media/upload, streamed from disk) with a
 * spinner, and resolves with its media task, completed with the one file. A refusal
 * (HTML, an unknown format, past the size cap) keeps the daemon's code and exit code and
 * names the file.
 */
export async function uploadFile(ctx: Ctx, path: string): Promise<MediaUploadResponse> {
  const client = await ctx.client();
  const name = basename(path);
  const spinner = (await ctx.spinner()).start(`Uploading ${name} (${formatBytes(statSync(path).size)})`);
  try {
    const task = await client.media.upload(path);
    spinner.succeed(`Uploaded ${name}`);
    return task;
  } catch (err) {
    spinner.fail(`Could not upload ${name}`);
    const f = toFailure(err);
    throw new CliError(f.code, `${name}: ${f.message}`, f.exitCode, { hint: f.hint, details: f.details, cause: err });
  }
}
