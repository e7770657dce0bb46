import { describe, expect, it } from 'vitest';
import { xPermalink } from '../../../src/platforms/twitter/permalink';

// docs/reference/platforms.md, X "Permalink": one form for published posts, comments and our replies.
describe('xPermalink', () => {
  it('links under the handle when X gave one, else by the id alone', () => {
    expect(xPermalink('sandbox_x', '1990000000000000001')).toBe('https://x.com/sandbox_x/status/1990000000000000001');
    expect(xPermalink(null, '1990000000000000001')).toBe('https://x.com/i/web/status/1990000000000000001');
    expect(xPermalink(undefined, '1')).toBe('https://x.com/i/web/status/1');
  });

  it('never puts what is not a username into the path', () => {
    expect(xPermalink('../evil', '1')).toBe('https://x.com/i/web/status/1');
    expect(xPermalink('a_name_far_too_long', '1')).toBe('https://x.com/i/web/status/1');
  });
});
