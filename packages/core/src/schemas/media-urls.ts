import { z } from 'zod';

export const MAX_MEDIA_URLS = 10;

function withoutUserinfo(url: string): boolean {
  try {
    const u = new URL(url);
    return u.username === '' && u.password === '';
  } catch {
    return true; // not a URL at all: z.url() has said so
  }
}

/** A list of media URLs as the publish request takes them (media_urls, and each thread part's). */
export const MediaUrlListSchema = z
  .array(
    z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
      // As /media/prepare: a password in a URL would be stored and shown with the job.
      .refine(withoutUserinfo, { error: 'URLs with a user name or password are not accepted' }),
  )
  .max(MAX_MEDIA_URLS, { error: `at most ${MAX_MEDIA_URLS} media_urls` });
