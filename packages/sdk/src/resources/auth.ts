import { ROUTES, type AuthValidateResponse } from '@socialpub/core';
import type { RequestOptions } from '../options';
import { Resource } from './resource';

export class Auth extends Resource {
  /**
   * POST /auth/validate: checks the API key. Resolves `{ valid: true, user }`; a bad key
   * rejects with AuthenticationError (401).
   */
  validate(options?: RequestOptions): Promise<AuthValidateResponse> {
    return this.transport.call(ROUTES['auth.validate'], {}, options);
  }
}
