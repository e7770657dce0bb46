import { ROUTES, type PublishResult, type ValidateResult } from '@socialpub/core';
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
    return this.transport.call(ROUTES['content.publish'], { body }, options);
  }

  /**
   * POST /content/validate: runs every check publishing runs and stores nothing. Resolves
   * `{ valid, targets, errors }`; a body that is not a publication request at all is a 400.
   */
  validate(body: PublishParams, options?: RequestOptions): Promise<ValidateResult> {
    return this.transport.call(ROUTES['content.validate'], { body }, options);
  }
}
