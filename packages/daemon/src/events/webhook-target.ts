import { AddressGuard, type HostResolver, type ResolvedAddress } from '../net/address-guard';
import { MediaError } from '../net/media-error';

export interface TargetPolicy {
  /** webhook_allow_private: private and loopback addresses over http too (metadata stays refused). */
  allowPrivate: boolean;
  /** Tests make public names with it; default: the system resolver. */
  resolve?: HostResolver;
}

/** Why a delivery URL is refused, in words for a 400 or a failed attempt. */
export class TargetRefused extends Error {
  override name = 'TargetRefused';
}

/** Where an operator allows webhook receivers on private addresses. */
export const WEBHOOK_ALLOW_PRIVATE_HINT =
  'to deliver to private and loopback receivers (a network you trust), set "webhook_allow_private": true in config.json in the daemon\'s data dir, or SOCIALPUB_WEBHOOK_ALLOW_PRIVATE=1, and restart the daemon';

/** Parses and checks a delivery URL's form: https (http only with allowPrivate), no credentials, no fragment. */
export function parseTargetUrl(input: string, policy: TargetPolicy): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new TargetRefused(`${JSON.stringify(input)} is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TargetRefused(`the URL must use https, not ${url.protocol.replace(':', '')}`);
  if (url.protocol === 'http:' && !policy.allowPrivate) {
    throw new TargetRefused(`the URL must use https; plain http goes only to private and loopback receivers, once they are allowed: ${WEBHOOK_ALLOW_PRIVATE_HINT}`);
  }
  if (url.username || url.password) throw new TargetRefused('the URL must not carry a user name or password');
  if (url.hash) throw new TargetRefused('the URL must not have a #fragment');
  return url;
}

/**
 * The one address to send to, checked by the media module's SSRF guard (the same rules as
 * media sources: private, loopback, link-local and metadata addresses refused, also after
 * DNS; with allowPrivate only metadata stays refused). The sender connects to exactly it.
 */
export async function resolveTarget(url: URL, policy: TargetPolicy): Promise<ResolvedAddress> {
  const guard = new AddressGuard({ allowPrivate: policy.allowPrivate, allowHint: WEBHOOK_ALLOW_PRIVATE_HINT, ...(policy.resolve ? { resolve: policy.resolve } : {}) });
  try {
    const address = await guard.resolveHost(url.hostname);
    if (url.protocol === 'http:' && !policy.allowPrivate) throw new TargetRefused('the URL must use https');
    return address;
  } catch (err) {
    if (err instanceof MediaError) throw new TargetRefused(err.message.replace('refused to fetch from', 'refused to deliver to'));
    throw err;
  }
}
