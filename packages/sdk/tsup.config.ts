import { defineConfig, type Options } from 'tsup';
import { packageDocs } from '../../scripts/package-docs';

/**
 * ESM + CommonJS with declarations for each. @socialpub/core is private (never published),
 * so its code and its types are bundled in; got and zod stay dependencies. Nothing of the
 * daemon can end up here: eslint forbids importing it from src/, and the dist test checks.
 * The ESM build is split, so the schemas (src/schemas.ts, imported on the first answer
 * checked) are a chunk of their own that importing the SDK does not load. The CommonJS
 * build is one file: tsup's CommonJS splitting turns `import('got')` into `require('got')`,
 * which an ESM-only got refuses before Node 22.12.
 */
const common: Options = {
  entry: { index: 'src/index.ts' },
  target: 'node22',
  platform: 'node',
  outDir: 'dist',
  sourcemap: true,
  tsconfig: '../../tsconfig.base.json',
  noExternal: ['@socialpub/core'],
  external: ['got', 'zod'],
  // core exports its TypeScript sources (no "types" field), so point the declaration bundler at them directly.
  dts: { compilerOptions: { paths: { '@socialpub/core': ['../core/src/index.ts'] } } },
};

export default defineConfig([
  { ...common, format: ['esm'], splitting: true, clean: true },
  // The README links to these; the package carries them (docs/ here is a build output).
  { ...common, format: ['cjs'], splitting: false, onSuccess: async () => packageDocs('.', ['sdk.md', 'api.md', 'operations.md']) },
]);
