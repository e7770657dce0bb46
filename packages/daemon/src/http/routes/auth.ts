import type { AuthValidateResponse, Routes } from '@socialpub/core';
import type { RouteHandlers } from '../route-table/mount-route';

/** POST /auth/validate: the key was accepted by the auth middleware, so it is valid; answers its user and its scope. */
export function authHandlers(): RouteHandlers<Routes, 'auth.validate'> {
  return {
    'auth.validate': (_input, c): AuthValidateResponse => {
      const user = c.get('user');
      return { success: true, valid: true, user: { id: user.id, email: user.email }, scope: c.get('scope') };
    },
  };
}
