import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));

/**
 * Copies the named documents of docs/ into `<packageDir>/docs/`, so the links of a
 * package's README (and between these documents) work where the package is installed
 * or shown (npm), outside this repository. Run by the packages' builds (tsup onSuccess).
 */
export function packageDocs(packageDir: string, names: string[]): void {
  const out = join(packageDir, 'docs');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  for (const name of names) cpSync(join(root, 'docs', name), join(out, name));
}
