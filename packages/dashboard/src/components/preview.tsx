import type { Platform } from '@socialpub/core/platforms';
import { viewCaption } from '../lib/caption';
import { counterText } from '../lib/names';
import { choiceName, optionWords } from '../lib/option-words';
import { FullSizeImage } from './full-size-image';

const VIDEO = /\.(mp4|mov|avi|m4v|webm)(\?|#|$)/i;

export function mediaKind(url: string, known?: Record<string, 'image' | 'video'>): 'image' | 'video' {
  return known?.[url] ?? (VIDEO.test(url) ? 'video' : 'image');
}

/** Only files the daemon serves are loaded (the page's policy allows no other origin). */
function sameOrigin(url: string): boolean {
  try {
    const u = new URL(url, location.href);
    return u.origin === location.origin && (u.protocol === 'http:' || u.protocol === 'https:');
  } catch {
    return false;
  }
}

/**
 * The cover a network shows before its video plays, when the post names one the daemon serves
 * (Instagram's cover_url, YouTube's thumbnail_url, Pinterest's cover_image_url). Without one,
 * the networks show the video's first frame, and so does the preview (preload="metadata").
 */
export function posterOf(options: Record<string, unknown> | null | undefined): string | undefined {
  for (const k of ['cover_url', 'thumbnail_url', 'cover_image_url']) {
    const v = options?.[k];
    if (typeof v === 'string' && sameOrigin(v)) return v;
  }
  return undefined;
}

/** The CSS class of a ratio: `2:3` -> `ratio-2x3` (the stylesheet sizes each; no inline style under the page's CSP). */
export const ratioClass = (ratio: string) => `ratio-${ratio.replace(':', 'x')}`;

/**
 * One media item framed as the network frames it (`ratio`, from the platform's `frames` in
 * core), with its place in a carousel ("2 of 3") when the post has several.
 */
export function MediaFrame({ url, ratio, what, index, count, kinds, poster }: { url: string; ratio: string; what: string; index: number; count: number; kinds?: Record<string, 'image' | 'video'> | undefined; poster?: string | undefined }) {
  const kind = mediaKind(url, kinds);
  const name = url.split('/').pop() ?? url;
  return (
    <figure class={`media ${ratioClass(ratio)}`}>
      {sameOrigin(url) ? (
        kind === 'video' ? (
          <video src={url} controls playsInline preload="metadata" poster={poster} aria-label={`video ${name}`} />
        ) : (
          <FullSizeImage url={url} name={name} />
        )
      ) : (
        <span class="media-external">{kind} at {url}</span>
      )}
      <figcaption>
        {ratio} {what}
        {count > 1 ? ` · ${index + 1} of ${count}` : ''}
      </figcaption>
    </figure>
  );
}

/** The caption as `platform` shows it: marked, counted by its rules, cut where it cuts. */
export function CaptionPreview({ text, platform }: { text: string; platform: Platform }) {
  const v = viewCaption(text, platform);
  const over = v.length > v.max;
  return (
    <div class="caption-preview">
      <p class="caption-text">
        {v.segments.map((s, i) => (
          <span key={i} class={`tok-${s.kind}${s.over ? ' tok-over' : ''}`}>
            {s.text}
          </span>
        ))}
      </p>
      <p class={over ? 'counter counter-over' : 'counter'}>{counterText(v.length, v.max, v.counting)}</p>
      {v.problems.map((p) => (
        <p class="counter counter-over" key={p}>
          {p}
        </p>
      ))}
    </div>
  );
}

/** An option's value in words: a choice as the network names it, lists joined, yes/no, an object's fields named (never JSON). */
function show(platform: string, path: string, value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value)) return value.map((v) => show(platform, path, v)).join(', ');
  if (typeof value === 'object')
    return Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${optionWords(platform, `${path}.${k}`).label}: ${show(platform, `${path}.${k}`, v)}`)
      .join('; ');
  return choiceName(platform, path, String(value));
}

/** A post's options for one network, each labelled and valued in words (core's optionWords). */
export function OptionsList({ platform, options }: { platform: string; options: Record<string, unknown> }) {
  return (
    <dl class="options">
      {Object.entries(options).map(([k, v]) => (
        <div key={k}>
          <dt>{optionWords(platform, k).label}</dt>
          <dd>{show(platform, k, v)}</dd>
        </div>
      ))}
    </dl>
  );
}
