import { describe, expect, it } from 'vitest';
import { postWebhook } from '../../src/events/webhook-post';

describe('postWebhook to an address with no route (issue 28, item 1)', () => {
  it.each([
    ['https', '255.255.255.255', 4],
    ['http', '255.255.255.255', 4],
    ['https', 'ff02::1', 6],
  ] as const)('%s to %s rejects with the connect error, nothing uncaught', async (scheme, address, family) => {
    const uncaught: unknown[] = [];
    const onUncaught = (e: unknown) => uncaught.push(e);
    process.on('uncaughtException', onUncaught);
    try {
      const error = await postWebhook({ url: new URL(`${scheme}://pub.probe.test/b`), address: { address, family }, headers: {}, body: '{}', signal: AbortSignal.timeout(5_000) }).then(
        () => null,
        (e: unknown) => e as NodeJS.ErrnoException,
      );
      // A synchronous pinned lookup made this a TypeError from tls.connect (and an
      // uncaught 'error' event on the socket, which ended the daemon).
      expect(error?.code).toBe('ENETUNREACH');
      expect(error?.message).toMatch(/^connect ENETUNREACH /);
      await new Promise((r) => setTimeout(r, 50));
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  });
});
