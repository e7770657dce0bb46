import type { ErrorDetail } from '@socialpub/core';
import { waitWords } from '@socialpub/core/rate-limited';

/** The API-like error the tools report: what the SDK's APIError and BackendError carry. */
export interface ToolErrorInfo {
  status?: number | undefined;
  code: string;
  message: string;
  details?: ErrorDetail[] | undefined;
  retryAfter?: number | undefined;
}

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EHOSTUNREACH', 'ETIMEDOUT', 'connection_error']);

/** One line telling an agent what to do about an error, from its code (and the platforms its details name). */
export function nextStep(error: ToolErrorInfo): string {
  const platforms = [...new Set((error.details ?? []).map((d) => d.platform).filter((p): p is string => typeof p === 'string'))];
  switch (error.code) {
    case 'invalid_request':
      return 'fix the fields named in details and call again (validate_post checks a post without storing anything)';
    case 'unauthorized':
      return 'the API key was refused: check it with `socialpub auth validate`, or make one with `socialpub keys create`';
    case 'forbidden':
      return error.message.includes('agent')
        ? 'ask the person to approve it: socialpub schedule approve <job_id>'
        : 'this belongs to another user; list_posts shows your own posts';
    case 'insufficient_scope':
      return "this API key's scope does not allow it: ask the person to do it (e.g. socialpub schedule approve <job_id>), or to give you a key of the scope the message names";
    case 'platform_not_connected':
      return platforms.length > 0
        ? `connect ${platforms.join(' and ')} first: ${platforms.map((p) => `socialpub connect ${p}`).join('; ')} (add --sandbox for a dry run)`
        : 'connect the platform first: socialpub connect <platform> (list_platforms shows your connections)';
    case 'facebook_page_not_selected':
      return 'pick a Facebook page: socialpub connect facebook';
    case 'https_required':
      return "the daemon sits behind a TLS proxy: use its https:// address";
    case 'not_found':
      return 'check the id: list_posts shows your posts';
    case 'conflict':
      return 'get_post shows its current status: only targets still scheduled or pending approval can change';
    case 'idempotency_conflict':
      return 'this idempotency_key was used for another request: resend the same arguments, or use a new key';
    case 'payload_too_large':
      return 'send media as URLs (prepare_media) or a local file (upload_file), not inside the arguments';
    case 'unsupported_media_type':
      return 'only JPEG, PNG, GIF, MP4, MOV and AVI files can be published';
    case 'rate_limited':
      return `wait ${waitWords(error.retryAfter ?? 60)} before calling again (the message says until when)`;
    case 'unavailable':
      return `retry in ${error.retryAfter ?? 1} s; nothing was stored`;
    case 'internal':
      return 'retry later; the daemon log has the details under the request id';
    default:
      if (CONNECTION_CODES.has(error.code) || error.status === undefined) return 'start the daemon: socialpub up (or check its address)';
      return 'see the message; get_post or list_posts show the current state';
  }
}
