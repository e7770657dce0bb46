import { SocialPub as GotSocialPub } from './client';
import { NetSender } from './senders/net-sender';
import type { HttpSender } from './senders/sender';

/**
 * `@socialpub/sdk/client` (a workspace-only entry: the CLI's): the same SocialPub, sending
 * its requests over a node:net socket to a plain-http daemon (senders/net-sender.ts) and
 * with node:http alone otherwise, instead of got, which a short-lived program would pay
 * about 100 ms of CPU to load on every start (docs/architecture.md, "Start-up"). Same
 * methods, errors, time-outs and retries; no redirects followed, no compression asked for.
 */
export class SocialPub extends GotSocialPub {
  protected static override createSender(): HttpSender {
    return new NetSender();
  }
}
