import { defineConfig } from 'tsup';
import { packageDocs } from '../../scripts/package-docs';

/**
 * ESM + CommonJS with declarations for each. @socialpub/core is private (never published),
 * so its code and its types are bundled in; got and zod stay dependencies. Nothing of the
 * daemon can end up here: eslint forbids importing it from src/, and the dist test checks.
 */
export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm', 'cjs'],
  target: 'node22',
  platform: 'node',
  outDir: 'dist',
  clean: true,
  sourcemap: true,
  splitting: false,
  tsconfig: '../../tsconfig.base.json',
  noExternal: ['@socialpub/core'],
  external: ['got', 'zod'],
  // core exports its TypeScript sources (no "types" field), so point the declaration bundler at them directly.
  dts: { compilerOptions: { paths: { '@socialpub/core': ['../core/src/index.ts'] } } },
  // The README links to these; the package carries them (docs/ here is a build output).
  onSuccess: async () => packageDocs('.', ['sdk.md', 'api.md', 'operations.md']),
});
