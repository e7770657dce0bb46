import type { AuthValidateResponse } from '@socialpub/core';
import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { rateClass } from '../middleware/rate-limit';

/** POST /auth/validate: the key was accepted by the auth middleware, so it is valid; answers its user. */
export function authRoutes() {
  return new Hono<AppEnv>().post('/validate', rateClass('auth'), (c) => {
    const user = c.get('user');
    const body: AuthValidateResponse = { success: true, valid: true, user: { id: user.id, email: user.email } };
    return c.json(body, 200);
  });
}
