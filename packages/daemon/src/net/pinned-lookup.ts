import type { LookupFunction } from 'node:net';
import type { ResolvedAddress } from './address-guard';

/**
 * A lookup function for node:http(s) that answers every lookup with the address the guard
 * checked, so the connection goes there whatever DNS would say now (webhook deliveries).
 *
 * It answers on the next tick, as dns.lookup does. A lookup that calls back synchronously
 * makes the socket connect inside tls.connect()/the agent: a connect that fails at once
 * (ENETUNREACH: a name whose address has no route, e.g. IPv6 on a host without it) then
 * destroys the socket before its error listeners exist, and the 'error' event becomes an
 * uncaught exception that ends the process (issue 28, item 1).
 */
export function pinnedLookup(address: ResolvedAddress): LookupFunction {
  return (_host, options, callback) => {
    process.nextTick(() => {
      if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [address]);
      else callback(null, address.address, address.family);
    });
  };
}
