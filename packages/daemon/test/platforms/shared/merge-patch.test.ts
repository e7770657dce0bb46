import { describe, expect, it } from 'vitest';
import { applyMergePatch } from '../../../src/platforms/shared/merge-patch';
import { openDatabase } from '../../../src/store/database';
import { useTempDirs } from '../../support/temp-dirs';

const tempDir = useTempDirs();

describe('applyMergePatch', () => {
  it('merges a checkpoint in memory exactly as SQLite json_patch merges it on disk, null members inside values included', () => {
    const db = openDatabase(`${tempDir('sp-merge-')}/socialpub.db`);
    const patchOnDisk = db.prepare<[string, string], string>('SELECT json_patch(?, ?)').pluck();
    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [{}, { sent: { title: null, description: 'd', link: null }, pinRequestedAt: 1 }],
      [{ sent: { title: 't', link: 'l' } }, { sent: { link: null } }],
      [{ units: { a: { id: 1 }, b: { id: 2 } } }, { units: { b: null, c: { id: 3, caption: null } } }],
      [{ made: [1, 2], did: 'x' }, { made: [null, 3], did: null }],
      [{ a: 'scalar' }, { a: { b: null, c: 1 } }],
    ];
    for (const [before, patch] of cases) {
      const onDisk = JSON.parse(patchOnDisk.get(JSON.stringify(before), JSON.stringify(patch))!) as unknown;
      expect(applyMergePatch(structuredClone(before), patch), JSON.stringify(patch)).toEqual(onDisk);
    }
    expect(applyMergePatch({}, { sent: { title: null, description: 'd' } })).toEqual({ sent: { description: 'd' } });
    db.close();
  });
});
