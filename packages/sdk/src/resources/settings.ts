import type { SettingsResponse, SettingsUpdate } from '@socialpub/core';
import type { RequestOptions } from '../options';
import { Resource } from './resource';

export class SettingsResource extends Resource {
  /** GET /settings: the caller's timezone (null: UTC) and approval workflow. */
  get(options?: RequestOptions): Promise<SettingsResponse> {
    return this.transport.request({ method: 'GET', path: '/settings', schema: (s) => s.SettingsResponseSchema }, options);
  }

  /** PATCH /settings: sets the timezone (an IANA name; null clears it). */
  update(body: SettingsUpdate, options?: RequestOptions): Promise<SettingsResponse> {
    return this.transport.request({ method: 'PATCH', path: '/settings', body, schema: (s) => s.SettingsResponseSchema }, options);
  }
}
