import { afterEach } from 'vitest';

/** Hands a test something to undo once it ends. */
export type Defer = (cleanup: () => unknown) => void;

/** Registers an afterEach that undoes what each test deferred, last deferred first (servers close before the folder they write to goes). */
export function useCleanups(): Defer {
  const cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  return (cleanup) => {
    cleanups.push(cleanup);
  };
}
