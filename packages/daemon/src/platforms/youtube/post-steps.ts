import type { YoutubeOptions } from '@socialpub/core';
import { POST_STEPS_KEY, type PostStep, type PublishContext } from '../adapter';
import type { GoogleClient } from './google-client';
import type { ThumbnailFetcher } from './fetch-thumbnail';

type Call = <T>(step: string, run: () => Promise<T>) => Promise<T>;

/** The post steps as the checkpoint holds them; `requested` marks a playlist insert sent without a known answer. */
type Steps = Record<string, PostStep | { status: 'requested' }>;

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * What comes after the upload of an already published video: the custom thumbnail
 * (thumbnails.set) and the playlist (playlistItems.insert), each tried once and its result
 * checkpointed under POST_STEPS_KEY, where the target shows it as `post_steps`. A failure never fails the
 * target or repeats the upload. A playlist insert is marked `requested` before it is sent,
 * so after a crash the playlist is looked at instead of adding the video twice.
 */
export async function runPostSteps(ctx: PublishContext, client: GoogleClient, call: Call, videoId: string, fetchThumbnail: ThumbnailFetcher): Promise<void> {
  const options = ctx.target.options as YoutubeOptions;
  const steps = (): Steps => ({ ...((ctx.checkpoint.data[POST_STEPS_KEY] as Steps | undefined) ?? {}) });
  const save = (name: string, value: Steps[string]) => ctx.checkpoint.save({ [POST_STEPS_KEY]: { ...steps(), [name]: value } });
  /** Runs one step; a shutdown (abort) leaves it pending for the next attempt rather than calling it failed. */
  async function attempt(name: string, run: () => Promise<PostStep>): Promise<void> {
    let result: PostStep;
    try {
      result = await run();
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      result = { status: 'failed', error: errorText(err) };
      ctx.log.warn(`YouTube ${name} failed after the upload; the video stays published`, { video: videoId, error: result.error });
    }
    await save(name, result);
  }

  if (options.thumbnail_url !== undefined && steps().thumbnail === undefined) {
    const url = options.thumbnail_url;
    await attempt('thumbnail', async () => {
      const image = await fetchThumbnail(url, ctx.signal).catch((err: unknown) => {
        throw new Error(`could not fetch ${url}: ${errorText(err)}`);
      });
      await call('thumbnail', () => client.setThumbnail(videoId, image.bytes, image.mimeType));
      return { status: 'done' };
    });
  }

  const playlist = options.playlist_id;
  const prior = steps().playlist;
  if (playlist !== undefined && (prior === undefined || prior.status === 'requested')) {
    await attempt('playlist', async () => {
      if (prior?.status === 'requested') {
        // An earlier insert may have landed: look before adding the video a second time.
        const found = await call('playlist lookup', () => client.findPlaylistItem(playlist, videoId));
        if (found) return { status: 'done', id: found };
      }
      await save('playlist', { status: 'requested' });
      const id = await call('playlist', () => client.insertPlaylistItem(playlist, videoId));
      return { status: 'done', id };
    });
  }
}
