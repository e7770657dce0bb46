import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url));

export default defineConfig({
  resolve: {
    alias: {
      // The SDK's workspace-only entry (the CLI's client, docs/architecture.md "Start-up"); before the package's own.
      '@socialpub/sdk/client': fileURLToPath(new URL('./packages/sdk/src/light-client.ts', import.meta.url)),
      // Subpaths of core (the dashboard's light imports; twitter-text kept out of its index); before the package's own.
      '@socialpub/core/caption-length': fileURLToPath(new URL('./packages/core/src/caption-length.ts', import.meta.url)),
      '@socialpub/core/platforms': fileURLToPath(new URL('./packages/core/src/platforms.ts', import.meta.url)),
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
