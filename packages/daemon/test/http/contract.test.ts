import { describe, it } from 'vitest';
import { API, harness } from './harness';
import { checkInterfaceContract } from './interface-contract';

describe('responses match the core schemas', () => {
  it('for every endpoint of the interface', async () => {
    const h = harness();
    h.connect(['instagram', 'twitter', 'facebook']);
    await checkInterfaceContract(
      {
        call: (method, path, body) => h.call(method, `${API}${path}`, body === undefined ? {} : { body }),
        health: () => Promise.resolve(h.app.request('/healthz')),
      },
      { scheduledFor: '2026-12-25T10:00:00Z', movedTo: '2026-12-25T12:00:00Z' },
    );
  });
});
