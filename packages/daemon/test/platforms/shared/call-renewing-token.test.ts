import { describe, expect, it } from 'vitest';
import type { PublishContext } from '../../../src/platforms/adapter';
import { callRenewingToken } from '../../../src/platforms/shared/call-renewing-token';

class Refused extends Error {}
class Mapped extends Error {
  constructor(readonly original: unknown) {
    super(`mapped: ${(original as Error).message}`);
  }
}

/** Only the credentials matter to callRenewingToken. */
const ctxWith = (secrets: Record<string, string>) => ({ credentials: { secrets } }) as unknown as PublishContext;

/** A call that fails with each of `failures` in turn, then answers `ok`; counts its runs and renewals. */
function scripted(failures: Error[]) {
  const seen = { runs: 0, renewals: 0 };
  const run = async () => {
    const failure = failures[seen.runs++];
    if (failure) throw failure;
    return 'ok';
  };
  const how = {
    refused: (err: unknown) => err instanceof Refused,
    renew: async () => {
      seen.renewals++;
    },
    mapError: (err: unknown) => new Mapped(err),
  };
  return { seen, run, how };
}

describe('callRenewingToken', () => {
  it('answers a call that succeeds without renewing anything', async () => {
    const { seen, run, how } = scripted([]);
    await expect(callRenewingToken(ctxWith({ refresh_token: 'rt' }), run, how)).resolves.toBe('ok');
    expect(seen).toEqual({ runs: 1, renewals: 0 });
  });

  it('renews a refused token once and repeats the call', async () => {
    const { seen, run, how } = scripted([new Refused('401')]);
    await expect(callRenewingToken(ctxWith({ refresh_token: 'rt' }), run, how)).resolves.toBe('ok');
    expect(seen).toEqual({ runs: 2, renewals: 1 });
  });

  it('gives up after one renewal when the new token is refused too', async () => {
    const { seen, run, how } = scripted([new Refused('401'), new Refused('401 again')]);
    const err = await callRenewingToken(ctxWith({ refresh_token: 'rt' }), run, how).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Mapped);
    expect((err as Error).message).toBe('mapped: 401 again');
    expect(seen).toEqual({ runs: 2, renewals: 1 });
  });

  it('does not renew without a refresh token', async () => {
    const { seen, run, how } = scripted([new Refused('401')]);
    const err = await callRenewingToken(ctxWith({ access_token: 'at' }), run, how).catch((e: unknown) => e);
    expect((err as Mapped).original).toBeInstanceOf(Refused);
    expect(seen).toEqual({ runs: 1, renewals: 0 });
  });

  it('does not renew or repeat after any other failure', async () => {
    const { seen, run, how } = scripted([new Error('500')]);
    const err = await callRenewingToken(ctxWith({ refresh_token: 'rt' }), run, how).catch((e: unknown) => e);
    expect((err as Error).message).toBe('mapped: 500');
    expect(seen).toEqual({ runs: 1, renewals: 0 });
  });

  it('maps a failed renewal and does not repeat the call', async () => {
    const { seen, run, how } = scripted([new Refused('401')]);
    const failing = { ...how, renew: async () => Promise.reject(new Error('invalid_grant')) };
    const err = await callRenewingToken(ctxWith({ refresh_token: 'rt' }), run, failing).catch((e: unknown) => e);
    expect((err as Error).message).toBe('mapped: invalid_grant');
    expect(seen.runs).toBe(1);
  });
});
