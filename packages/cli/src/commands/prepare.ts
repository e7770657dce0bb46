import type { MediaStatus } from '@socialpub/core';
import type { SettledMediaStatus } from '@socialpub/sdk';
import type { Ctx } from '../context';
import { CliError, EXIT } from '../errors';
import { formatBytes } from '../ui/format';
import type { Logger } from '../ui/logger';
import { localFile, uploadFile } from './upload-file';

export interface PrepareOptions {
  /** URLs, or local files (uploaded to the daemon). */
  urls: string[];
  wait: boolean;
}

/**
 * `socialpub prepare <url|file...> [--wait]`: local files are uploaded (POST /media/upload,
 * each a task completed at once); URLs start one media task, followed to its end with
 * --wait. One task is printed as it is; several (files, or files and URLs) as `{ tasks }`.
 */
export async function prepare(ctx: Ctx, { urls: items, wait }: PrepareOptions): Promise<void> {
  const urls: string[] = [];
  const files: string[] = [];
  for (const item of items) {
    const path = localFile(ctx, item, 'argument');
    if (path === null) urls.push(item);
    else files.push(path);
  }
  const client = await ctx.client();
  const tasks: MediaStatus[] = [];
  for (const path of files) tasks.push(await uploadFile(ctx, path));
  if (urls.length) {
    const started = await client.media.prepare({ urls });
    if (!wait && !files.length) {
      ctx.log.result({ task_id: started.task_id, message: started.message }, () => [
        `${ctx.log.green('✔')} ${started.message}`,
        ctx.log.fields([['task', ctx.log.bold(started.task_id)]])[0] as string,
        ctx.log.dim(`follow it with: socialpub status ${started.task_id}   (or prepare --wait next time)`),
      ]);
      return;
    }
    tasks.push(wait ? await waitForTask(ctx, started.task_id, urls.length) : await client.media.status(started.task_id));
  }
  if (tasks.length === 1) return reportTask(ctx, tasks[0] as MediaStatus);
  reportTasks(ctx, tasks);
}

/**
 * Several tasks: each printed in turn; under --json one `{ tasks: [...] }` document. Exit 8
 * when any file was refused (several tasks means an uploaded file, so one was prepared).
 */
function reportTasks(ctx: Ctx, tasks: MediaStatus[]): void {
  const data = { tasks: tasks.map(({ success: _ok, ...task }) => task) };
  const refused = tasks.reduce((n, t) => n + (t.status === 'processing' ? 0 : t.failed.length), 0);
  const failed = tasks.filter((t) => t.status === 'failed').length;
  const render = () => tasks.flatMap((t, i) => [...(i ? [''] : []), ...renderTask(ctx.log, t)]);
  if (refused || failed) {
    if (!ctx.log.json) ctx.log.line(render().join('\n'));
    throw new CliError('incomplete', `${refused} file${refused === 1 ? ' was' : 's were'} refused`, EXIT.incomplete, { data });
  }
  ctx.log.result(data, render);
}

/** Polls a media task with a spinner showing completed and failed of total. */
export async function waitForTask(ctx: Ctx, taskId: string, total: number): Promise<SettledMediaStatus> {
  const client = await ctx.client();
  const spinner = (await ctx.spinner()).start(progressText(0, 0, total));
  try {
    const final = await client.media.waitUntilReady(taskId, {
      interval: 250,
      maxInterval: 2_000,
      onProgress: (s: MediaStatus) => {
        spinner.text = progressText(s.progress.completed, s.progress.failed, s.progress.total);
      },
    });
    const text = progressText(final.progress.completed, final.progress.failed, final.progress.total);
    if (final.status === 'completed' && final.progress.failed === 0) spinner.succeed(text);
    else if (final.status === 'completed') spinner.warn(text);
    else spinner.fail(text);
    return final;
  } catch (err) {
    spinner.fail(`media task ${taskId}: stopped waiting`);
    throw err;
  }
}

function progressText(completed: number, failed: number, total: number): string {
  return `Preparing media: ${completed} completed, ${failed} failed of ${total}`;
}

/**
 * Prints a media task. When some files were refused it throws (exit 8), when no file could
 * be prepared too (exit 1): a person sees the task above the error; under --json the one
 * document is the error, with the task as its `data`.
 */
export function reportTask(ctx: Ctx, s: MediaStatus): void {
  const { success: _ok, ...data } = s;
  const failed = s.status === 'processing' ? 0 : s.failed.length;
  if (s.status === 'failed' || failed > 0) {
    if (!ctx.log.json) ctx.log.line(renderTask(ctx.log, s).join('\n'));
    const message = s.status === 'failed' ? `no file could be prepared (${s.error.message})` : `${failed} of ${s.progress.total} files were refused`;
    // Nothing prepared is a failure (exit 1); some files prepared, some refused, is exit 8.
    throw new CliError(s.status === 'failed' ? 'media_failed' : 'incomplete', message, s.status === 'failed' ? EXIT.error : EXIT.incomplete, { data });
  }
  ctx.log.result(data, () => renderTask(ctx.log, s));
}

export function renderTask(log: Logger, s: MediaStatus): string[] {
  const lines = log.fields([
    ['task', log.bold(s.task_id)],
    ['status', log.status(s.status)],
    ['progress', `${s.progress.completed} completed, ${s.progress.failed} failed of ${s.progress.total}`],
  ]);
  if (s.status === 'processing') return lines;
  if (s.files.length) {
    lines.push('', ...log.table(s.files, [
      { header: 'TYPE', value: (f) => f.type },
      { header: 'SIZE', value: (f) => formatBytes(f.size) },
      { header: 'PREPARED URL', value: (f) => f.prepared_url },
      { header: 'FROM', value: (f) => f.original_url },
    ]));
  }
  if (s.failed.length) {
    lines.push('', ...log.table(s.failed, [
      { header: 'REFUSED', value: (f) => f.original_url },
      { header: 'WHY', value: (f) => `${f.error.code}: ${f.error.message}`, style: (t) => log.red(t) },
    ]));
  }
  return lines;
}
