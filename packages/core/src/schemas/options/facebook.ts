import { z } from 'zod';
import { graphId, httpUrl } from './meta-fields';

export const FacebookOptionsSchema = z
  .strictObject({
    link: httpUrl('link')
      .optional()
      .meta({ description: 'link: the URL a link post shares (POST /{page-id}/feed). Feed posts without media only. Default: the first URL in the caption.' }),
    place: graphId('place')
      .optional()
      .meta({ description: 'place: the id of a Facebook Page with a location, checked in on the post. Feed posts: text, link and photo posts (not videos, stories or reels).' }),
  })
  .meta({ id: 'FacebookOptions', description: 'Facebook Page post options (POST /{page-id}/feed and /photos).' });
export type FacebookOptions = z.infer<typeof FacebookOptionsSchema>;
