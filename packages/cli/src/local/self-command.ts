import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * How to run this same CLI in a child process (the background daemon). The single
 * executable runs itself. From the bundle: node dist/cli.js. From the sources (tests,
 * development): node with tsx and the `@socialpub/source` condition, run from the
 * repository root where tsx is installed.
 */
export function selfCommand(): { file: string; args: string[]; cwd: string } {
  if (process.getBuiltinModule('node:sea')?.isSea()) return { file: process.execPath, args: [], cwd: dirname(process.execPath) };
  const here = dirname(fileURLToPath(import.meta.url));
  const bundled = join(here, 'cli.js');
  if (existsSync(bundled)) return { file: process.execPath, args: [bundled], cwd: here };
  const root = resolve(here, '..', '..', '..', '..');
  const source = join(root, 'packages', 'cli', 'src', 'cli.ts');
  return { file: process.execPath, args: ['--conditions=@socialpub/source', '--import', 'tsx', source], cwd: root };
}
