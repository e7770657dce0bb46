import { open, readFile, stat } from 'node:fs/promises';
import type { Ctx } from '../../context';
import { NotFoundError } from '../../errors';
import { daemonPaths } from '../../local/daemon-files';
import { stopSignal } from '../../local/stop-signal';

export interface LogsOptions {
  lines: number;
  follow: boolean;
}

const FOLLOW_POLL_MS = 250;

/** `socialpub daemon logs [-n N] [--follow]`: the background daemon's log (JSON lines). */
export async function daemonLogs(ctx: Ctx, { lines, follow }: LogsOptions): Promise<void> {
  const dataDir = await ctx.dataDir();
  const path = daemonPaths(dataDir).log;
  const text = await readFile(path, 'utf8').catch(() => {
    throw new NotFoundError(`no daemon log at ${path}`, { hint: 'the log is written by a daemon started with `socialpub up` or `daemon start`' });
  });
  const all = text.split('\n').filter(Boolean);
  const tail = all.slice(-lines);
  if (ctx.log.json && !follow) {
    ctx.log.data({ path, lines: tail.map((l) => parseLine(l)) });
    return;
  }
  for (const l of tail) ctx.io.stdout.write(`${ctx.log.json ? JSON.stringify(parseLine(l)) : l}\n`);
  if (!follow) return;
  const stop = stopSignal(ctx.io);
  let offset = Buffer.byteLength(text);
  try {
    while (!stop.signal.aborted) {
      const size = (await stat(path).catch(() => ({ size: offset }))).size;
      if (size < offset) offset = 0; // truncated or replaced: start over
      if (size > offset) {
        const fh = await open(path, 'r');
        const buf = Buffer.alloc(size - offset);
        await fh.read(buf, 0, buf.length, offset);
        await fh.close();
        offset = size;
        ctx.io.stdout.write(buf.toString('utf8'));
      }
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, FOLLOW_POLL_MS);
        stop.signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
      });
    }
  } finally {
    stop.dispose();
  }
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return { msg: line };
  }
}
