import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** Starts a daemon child script (TypeScript, run by tsx from source); `ready` resolves when it prints "ready". */
export function startDaemonChild(script: string, args: string[], env: Record<string, string> = {}): { child: ChildProcess; ready: Promise<void>; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['--conditions=@socialpub/source', '--import', 'tsx', script, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
    void exited.then((code) => reject(new Error(`daemon exited (${code}) before ready: ${stderr}`)));
  });
  return { child, ready, exited };
}
