import { ROUTES, type SettingsResponse, type SettingsUpdate } from '@socialpub/core';
import type { RequestOptions } from '../options';
import { Resource } from './resource';

export class SettingsResource extends Resource {
  /** GET /settings: the caller's timezone (null: UTC) and approval workflow. */
  get(options?: RequestOptions): Promise<SettingsResponse> {
    return this.transport.call(ROUTES['settings.get'], {}, options);
  }

  /** PATCH /settings: sets the timezone (an IANA name; null clears it). */
  update(body: SettingsUpdate, options?: RequestOptions): Promise<SettingsResponse> {
    return this.transport.call(ROUTES['settings.update'], { body }, options);
  }
}
