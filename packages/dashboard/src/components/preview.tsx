import { PLATFORM_INFO, type Platform } from '@socialpub/core/platforms';
import { viewCaption } from '../lib/caption';
import { counterText, platformName, typeName } from '../lib/names';
import { FullSizeImage } from './full-size-image';

/** How a content type is framed: the crop each network applies to it. */
export function cropOf(platform: string, type: string): string {
  if (type === 'story' || type === 'reels' || type === 'shorts' || platform === 'tiktok') return 'crop-9x16';
  if (platform === 'instagram' && type === 'feed') return 'crop-4x5';
  if (platform === 'youtube' || platform === 'twitter') return 'crop-16x9';
  return 'crop-1x1';
}

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

export function MediaFrame({ url, platform, type, kinds, poster }: { url: string; platform: string; type: string; kinds?: Record<string, 'image' | 'video'>; poster?: string | undefined }) {
  const crop = cropOf(platform, type);
  const kind = mediaKind(url, kinds);
  const name = url.split('/').pop() ?? url;
  return (
    <figure class={`media ${crop}`}>
      {sameOrigin(url) ? (
        kind === 'video' ? (
          <video src={url} controls playsInline preload="metadata" poster={poster} aria-label={`video ${name}`} />
        ) : (
          <FullSizeImage url={url} name={name} />
        )
      ) : (
        <span class="media-external">{kind} at {url}</span>
      )}
      <figcaption>{crop.replace('crop-', '').replace('x', ':')} crop</figcaption>
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

export interface PreviewProps {
  platform: Platform;
  types: readonly string[];
  caption: string;
  media: readonly string[];
  kinds?: Record<string, 'image' | 'video'>;
  options?: Record<string, unknown> | null;
}

/** One network's card: its caption and each content type's media crop and options. */
export function PlatformPreview({ platform, types, caption, media, kinds, options }: PreviewProps) {
  const info = PLATFORM_INFO[platform];
  const shown = types.length ? types : [info.defaultType];
  return (
    <section class={`preview preview-${platform}`} aria-label={`${platformName(platform)} preview`}>
      <h4>
        {platformName(platform)} <span class="muted">{shown.map(typeName).join(', ')}</span>
      </h4>
      <CaptionPreview text={caption} platform={platform} />
      {media.length > 0 &&
        shown.map((t) => (
          <div class="media-row" key={t}>
            <span class="muted">{typeName(t)}</span>
            {media.map((m) => (
              <MediaFrame key={m} url={m} platform={platform} type={t} poster={posterOf(options)} {...(kinds ? { kinds } : {})} />
            ))}
          </div>
        ))}
      {options && Object.keys(options).length > 0 && <OptionsList options={options} />}
    </section>
  );
}

function show(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export function OptionsList({ options }: { options: Record<string, unknown> }) {
  return (
    <dl class="options">
      {Object.entries(options).map(([k, v]) => (
        <div key={k}>
          <dt>{k.replace(/_/g, ' ')}</dt>
          <dd>{show(v)}</dd>
        </div>
      ))}
    </dl>
  );
}
