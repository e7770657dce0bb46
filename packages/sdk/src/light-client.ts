import { SocialPub as GotSocialPub } from './client';
import { NodeSender } from './senders/node-sender';
import type { HttpSender } from './senders/sender';

/**
 * `@socialpub/sdk/client` (a workspace-only entry: the CLI's): the same SocialPub, sending
 * its requests with node:http alone instead of got, which a short-lived program would pay
 * about 100 ms of CPU to load on every start (docs/architecture.md, "Start-up"). Same
 * methods, errors, time-outs and retries; no redirects followed, no compression asked for.
 */
export class SocialPub extends GotSocialPub {
  protected static override createSender(): HttpSender {
    return new NodeSender();
  }
}
