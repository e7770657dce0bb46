// bench/media: prepares a 500 MB video from a loopback server and downloads the same
// file with curl in the same run. Prints throughput of both, the ratio, and the peak
// RSS of the preparing process. Aim: >= 80% of curl's throughput, peak RSS <= 150 MB.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MAX_MEDIA_BYTES } from '../../packages/core/src/schemas/media';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const here = fileURLToPath(new URL('.', import.meta.url));
const MB = 1024 * 1024;

function makeFile(path: string, size: number): string {
  // An MP4 header, then varied bytes (not zeros, so nothing along the way can shortcut them).
  const head = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom\0\0\x02\0isommp41', 'latin1')]);
  const block = Buffer.alloc(MB);
  for (let i = 0; i < block.length; i += 4) block.writeUInt32LE((i * 2654435761) >>> 0, i);
  const hash = createHash('sha256');
  const fd = openSync(path, 'w');
  let written = 0;
  for (let n = 0; written < size; n++) {
    const chunk = n === 0 ? Buffer.concat([head, block.subarray(head.length)]) : block;
    const part = chunk.subarray(0, Math.min(chunk.length, size - written));
    block.writeUInt32LE(n, 0); // every megabyte differs
    writeSync(fd, part);
    hash.update(part);
    written += part.length;
  }
  closeSync(fd);
  return hash.digest('hex');
}

async function startServer(file: string): Promise<{ port: number; stop: () => void }> {
  const child = spawn(process.execPath, [join(here, 'serve-file.mjs'), file], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim())));
    child.once('exit', (code) => reject(new Error(`file server exited with ${code}`)));
  });
  return { port, stop: () => child.kill('SIGTERM') };
}

function curlOnce(url: string, out: string): number {
  const started = performance.now();
  const r = spawnSync('curl', ['-sS', '--fail', '-o', out, url], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error('curl failed');
  const ms = performance.now() - started;
  rmSync(out, { force: true });
  return ms;
}

function prepareOnce(url: string, dir: string): { ms: number; sha256: string; maxRssBytes: number } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(here, 'prepare-once.ts'), url, dir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) throw new Error('preparation failed');
  rmSync(join(dir, 'media'), { recursive: true, force: true });
  return JSON.parse(r.stdout.trim().split('\n').pop() as string) as { ms: number; sha256: string; maxRssBytes: number };
}

async function main(): Promise<void> {
  if (spawnSync('curl', ['--version']).status !== 0) throw new Error('curl is needed for the baseline');
  const dir = mkdtempSync(join(tmpdir(), 'sp-bench-media-'));
  try {
    const file = join(dir, 'source.mp4');
    const size = MAX_MEDIA_BYTES; // exactly the cap: the largest file preparation accepts
    const sha = makeFile(file, size);
    writeFileSync(join(dir, 'README'), 'bench/media scratch; deleted at the end\n');
    const server = await startServer(file);
    const url = `http://127.0.0.1:${server.port}/video.mp4`;
    const curl: number[] = [];
    const prep: { ms: number; maxRssBytes: number }[] = [];
    try {
      // Alternate, after one warm-up each, so both see the same page cache and load.
      curlOnce(url, join(dir, 'curl.out'));
      prepareOnce(url, dir);
      for (let i = 0; i < ROUNDS; i++) {
        // Alternate who goes first: the one after pays for the other's dirty pages.
        const runCurl = () => curl.push(curlOnce(url, join(dir, 'curl.out')));
        const runPrep = () => {
          const p = prepareOnce(url, dir);
          if (p.sha256 !== sha) throw new Error('prepared file has the wrong sha256');
          prep.push(p);
        };
        if (i % 2 === 0) {
          runCurl();
          runPrep();
        } else {
          runPrep();
          runCurl();
        }
      }
    } finally {
      server.stop();
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
    const mbps = (ms: number) => size / MB / (ms / 1000);
    const curlMbps = mbps(median(curl));
    const prepMbps = mbps(median(prep.map((p) => p.ms)));
    const rss = Math.max(...prep.map((p) => p.maxRssBytes)) / MB;
    const ratio = prepMbps / curlMbps;
    const best = (xs: number[]) => Math.min(...xs);
    console.log(`file: ${(size / MB).toFixed(0)} MB from a loopback server, ${ROUNDS} alternating rounds; median (best)`);
    console.log(`machine: ${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} (figures from a busy machine vary a lot)`);
    console.log(`curl -o file:             ${curlMbps.toFixed(0)} MB/s (${median(curl).toFixed(0)} ms; best ${mbps(best(curl)).toFixed(0)} MB/s)`);
    console.log(
      `socialpub prepare:        ${prepMbps.toFixed(0)} MB/s (${median(prep.map((p) => p.ms)).toFixed(0)} ms; best ${mbps(best(prep.map((p) => p.ms))).toFixed(0)} MB/s) — fetch, sniff, sha256, write, rename, SQLite`,
    );
    console.log(`ratio to curl:            ${(ratio * 100).toFixed(0)}% (aim >= 80%) ${ratio >= 0.8 ? 'OK' : 'BELOW AIM'}`);
    console.log(`peak RSS of the preparing process: ${rss.toFixed(0)} MB (aim <= 150 MB) ${rss <= 150 ? 'OK' : 'ABOVE AIM'}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
