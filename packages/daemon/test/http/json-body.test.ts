import { describe, expect, it } from 'vitest';
import { exceedsJsonValues, MAX_JSON_VALUES, textExceedsJsonValues } from '../../src/util/json-values';
import { API, errorOf, harness } from './harness';

describe('the limit of values in a request body (issue 28)', () => {
  it('counts commas and containers outside strings only, escapes included', () => {
    const items = (n: number) => JSON.stringify({ platforms: Array.from({ length: n }, () => 'x') });
    expect(textExceedsJsonValues(items(MAX_JSON_VALUES - 1))).toBe(false); // 1 member + 9,999 items
    expect(exceedsJsonValues(JSON.parse(items(MAX_JSON_VALUES - 1)))).toBe(false);
    expect(textExceedsJsonValues(items(MAX_JSON_VALUES + 2))).toBe(true);
    // Commas, brackets and escaped quotes inside a caption are text, not values.
    const caption = JSON.stringify({ caption: 'a, [b], {c}, \\"d\\", '.repeat(20_000) });
    expect(textExceedsJsonValues(caption)).toBe(false);
    expect(textExceedsJsonValues(JSON.stringify({ caption: 'say "hi", [x]'.repeat(5_000), list: Array.from({ length: 20_000 }, () => 1) }))).toBe(true);
    // Nested containers without commas count as values too (the parsed walk).
    let deep: unknown = 1;
    for (let i = 0; i < MAX_JSON_VALUES + 5; i++) deep = [deep];
    expect(exceedsJsonValues({ deep })).toBe(true);
    expect(exceedsJsonValues({ a: [1, 2, { b: 3 }] })).toBe(false);
  });

  it('accepts a caption full of commas and refuses a body of 20,000 items with the one error body', async () => {
    const h = harness();
    h.connect(['facebook']);
    const commas = await h.call('POST', `${API}/content/validate`, { body: { caption: 'one, two, three, '.repeat(3_000), platforms: ['facebook'], publish_now: true } });
    expect(commas.status).toBe(200);
    const res = await h.call('POST', `${API}/content/validate`, { body: { caption: 'x', platforms: Array.from({ length: 20_000 }, () => 'facebook'), publish_now: true } });
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toMatchObject({ code: 'invalid_request', details: [{ path: '(body)', message: 'more than 10000 values' }] });
  });
});
