import type { ErrorCode, ErrorDetail } from '@socialpub/core';
import type { z } from 'zod';

/**
 * A refusal by a service (jobs, media) in the API's own terms: an error code of the
 * contract and the details that explain it. The HTTP layer answers it with the one error
 * body; other front ends (MCP) carry the same code.
 */
export class ServiceError extends Error {
  override name = 'ServiceError';

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
  ) {
    super(message);
  }
}

/** zod issues as error details: a dotted path and a message each. */
export function issuesToDetails(issues: readonly z.core.$ZodIssue[]): ErrorDetail[] {
  return issues.flatMap((i) => {
    const path = i.path.map(String).join('.');
    // A strict object's unknown fields: one detail per field, its path naming it
    // (platform_options.youtube.thumbnial), as docs/api.md promises; zod names only the object.
    if (i.code === 'unrecognized_keys') {
      return i.keys.map((key) => ({ path: path ? `${path}.${key}` : key, message: `"${key}" is not a known field${path ? ` of ${path}` : ''}` }));
    }
    return [{ path: path || '(body)', message: i.message }];
  });
}

/** The message of an invalid request: the first problem, with its path unless it is the whole body. */
export function invalidMessage(details: readonly ErrorDetail[]): string {
  const first = details[0];
  return first ? (first.path && first.path !== '(body)' ? `${first.path}: ${first.message}` : first.message) : 'invalid request';
}

/** A 400 whose message names the first problem and whose details list them all. */
export function invalidInput(details: ErrorDetail[]): ServiceError {
  return new ServiceError('invalid_request', invalidMessage(details), details);
}
