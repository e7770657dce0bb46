import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url));

export default defineConfig({
  resolve: {
    alias: {
      '@socialpub/core': src('core'),
      '@socialpub/daemon': src('daemon'),
      '@socialpub/sdk': src('sdk'),
      '@socialpub/mcp': src('mcp'),
    },
  },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'examples/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
