/**
 * A post handed to Compose by another screen ("Publish again" on Posts): read once by the
 * Compose screen when it opens.
 */
export interface Draft {
  caption: string;
  platforms: string[];
  platform_captions: Record<string, string>;
  media_urls: string[];
}

let pending: Draft | null = null;

export function setDraft(d: Draft): void {
  pending = d;
}

export function takeDraft(): Draft | null {
  const d = pending;
  pending = null;
  return d;
}
