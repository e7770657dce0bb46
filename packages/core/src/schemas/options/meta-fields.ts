import { z } from 'zod';

/** An http(s) URL the platform itself fetches or shows (a reel cover, a shared link). */
export const httpUrl = (field: string) => z.url({ protocol: /^https?$/, error: `${field} must be an http(s) URL` });

/** A Graph object id: Meta's ids are numeric strings (docs/reference/platforms.md §12.4.3). */
export const graphId = (field: string) => z.string().regex(/^\d{1,25}$/, { error: `${field} is a numeric id` });
