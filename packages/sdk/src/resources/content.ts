import type { PublishResult, ValidateResult } from '@socialpub/core';
import type { RequestOptions } from '../options';
import type { PublishParams } from '../types';
import { Resource } from './resource';

export class Content extends Resource {
  /**
   * POST /content/publish: publishes now (`publish_now: true`) or schedules (`scheduled_for`,
   * optional `type_schedule`). Always sends an Idempotency-Key (yours, or one generated for
   * this call), so retries never create a second job.
   */
  publish(body: PublishParams, options?: RequestOptions): Promise<PublishResult> {
    return this.transport.request({ method: 'POST', path: '/content/publish', body, schema: (s) => s.PublishResultSchema, idempotent: true }, options);
  }

  /**
   * POST /content/validate: runs every check publishing runs and stores nothing. Resolves
   * `{ valid, targets, errors }`; a body that is not a publication request at all is a 400.
   */
  validate(body: PublishParams, options?: RequestOptions): Promise<ValidateResult> {
    return this.transport.request({ method: 'POST', path: '/content/validate', body, schema: (s) => s.ValidateResultSchema, readOnly: true }, options);
  }
}
