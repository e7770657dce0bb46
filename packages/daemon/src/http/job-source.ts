import { POST_SOURCES, SOURCE_HEADER, type PostSource } from '@socialpub/core';
import type { Context } from 'hono';
import { invalid } from './errors';

export { SOURCE_HEADER } from '@socialpub/core';

/**
 * How the request says it was made. A label the client declares, not a credential: it
 * decides whether agent-approval holds the job (a key holder who skips MCP is not an
 * agent working through our tools, and could call the API directly anyway).
 */
export function jobSourceOf(c: Context): PostSource {
  const raw = c.req.header(SOURCE_HEADER)?.trim().toLowerCase();
  if (raw === undefined || raw === '') return 'api';
  if ((POST_SOURCES as readonly string[]).includes(raw)) return raw as PostSource;
  throw invalid([{ path: `header ${SOURCE_HEADER}`, message: `must be one of ${POST_SOURCES.join(', ')}` }]);
}
