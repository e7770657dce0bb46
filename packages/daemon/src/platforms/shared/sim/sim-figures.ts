import { createHash } from 'node:crypto';

/**
 * What a simulated post has gathered at an age: the figures every simulator names in its
 * network's own words (X `like_count`, Mastodon `favourites_count`, Bluesky `likeCount`...).
 */
export interface SimFigures {
  impressions: number;
  reach: number;
  views: number;
  likes: number;
  replies: number;
  reposts: number;
  quotes: number;
  bookmarks: number;
  shares: number;
  saves: number;
  linkClicks: number;
  profileClicks: number;
}

/**
 * A simulated post's figures at `ageMs` after it was made: deterministic from its id and age
 * (the same read twice gives the same figures, in any process), never falling, and moving
 * from the first seconds so a demo sees them grow (impressions go as the square root of the
 * age in seconds, 20 to 79 per √s by the post; every other figure is a share of them fixed
 * by the post). `lagMs` holds the figures back as a network's documented lag does.
 */
export function simFigures(postId: string, ageMs: number, lagMs = 0): SimFigures {
  const h = createHash('sha256').update(`socialpub-sim-figures:${postId}`).digest();
  const seconds = Math.max(0, ageMs - lagMs) / 1000;
  const impressions = Math.floor((20 + (h[0]! % 60)) * Math.sqrt(seconds));
  // A share of the impressions in thousandths: lo + (byte mod span).
  const share = (i: number, lo: number, span: number) => Math.floor((impressions * (lo + (h[i]! % span))) / 1000);
  return {
    impressions,
    reach: share(1, 550, 300),
    views: share(2, 700, 250),
    likes: share(3, 10, 40),
    replies: share(4, 1, 6),
    reposts: share(5, 2, 10),
    quotes: share(6, 1, 3),
    bookmarks: share(7, 1, 8),
    shares: share(8, 1, 6),
    saves: share(9, 1, 8),
    linkClicks: share(10, 5, 15),
    profileClicks: share(11, 2, 8),
  };
}
