import { Hono } from 'hono';
import type { BrowserConnects } from '../../connect/browser-connect';
import { messagePage } from './message-page';
import { securityHeaders } from './security-headers';

/**
 * GET /connect/callback: where a platform sends the browser back after consent, for a
 * connect started from the dashboard. The OAuth `state` names the flow (only the flow and
 * the platform know it), so no session is needed here: a SameSite=Strict cookie is not
 * sent on the platform's cross-site redirect anyway. Then 303 to the Connections screen,
 * which reads the flow's state.
 */
export function connectCallbackRoutes(connects: BrowserConnects) {
  return new Hono().get('/callback', securityHeaders(), async (c) => {
    const state = c.req.query('state');
    const pending = state ? await connects.callback(state, c.req.url) : null;
    c.header('Cache-Control', 'no-store');
    if (!pending) {
      c.header('Content-Type', 'text/html; charset=utf-8');
      return c.body(messagePage('Not connected', ['This authorization does not belong to a connect in progress (it expired, was used, or was started elsewhere). Start the connect again from Connections.']), 400);
    }
    return c.redirect(`/connections?pending=${encodeURIComponent(pending.id)}`, 303);
  });
}
