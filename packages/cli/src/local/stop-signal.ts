import type { Io } from '../io';

/** The signal that ends a long-running command: the caller's, else the first SIGINT/SIGTERM. */
export function stopSignal(io: Io): { signal: AbortSignal; dispose(): void } {
  if (io.stop) return { signal: io.stop, dispose: () => undefined };
  const controller = new AbortController();
  const onSignal = (name: NodeJS.Signals) => controller.abort(name);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

export function aborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
