import type { Logger } from './logger';

/**
 * The last line of defence of a running daemon: an exception nobody caught (an 'error'
 * event without a listener, a throw in a timer) or a rejection nobody handled is logged
 * and the daemon keeps serving, instead of Node's default of ending the process.
 *
 * Why not exit and let a supervisor restart: the work that failed is still queued, so a
 * start that resumes it fails the same way before serving a request (issue 28: a webhook
 * delivery that crashed every start within a second, leaving no way to delete the
 * endpoint but editing SQLite). Every piece of work the daemon resumes records its own
 * failures (attempts, targets, tasks); what reaches this handler is a bug to fix, which
 * the log line names with its stack.
 *
 * Installed by startDaemon, removed by close(). Returns the remover.
 */
export function guardProcess(log: Logger, proc: NodeJS.Process = process): () => void {
  const onException = (error: Error, origin: string) => {
    log.error('uncaught exception; the daemon keeps serving', { error: error?.message ?? String(error), stack: error?.stack, origin });
  };
  const onRejection = (reason: unknown) => {
    const e = reason instanceof Error ? reason : null;
    log.error('unhandled rejection; the daemon keeps serving', { error: e ? e.message : String(reason), stack: e?.stack });
  };
  proc.on('uncaughtException', onException);
  proc.on('unhandledRejection', onRejection);
  return () => {
    proc.off('uncaughtException', onException);
    proc.off('unhandledRejection', onRejection);
  };
}
