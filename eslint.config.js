import js from '@eslint/js';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';
const NO_CLI = { group: ['**/cli/src/**'], message: 'Nothing imports the CLI.' };

/**
 * The daemon's layers, lowest first: util <- store <- media <- platforms <- the rest
 * (connect, scheduler, publisher, http, admin, the composition root). A folder imports its
 * own layer and those below, never one above (docs/architecture.md, "Layers").
 */
const src = (...dirs) => dirs.map((d) => `./packages/daemon/src/${d}`);
const ROOT = ['daemon.ts', 'config.ts', 'create-media.ts', 'index.ts'];
const UPPER = ['connect', 'scheduler', 'publisher', 'http', 'admin', 'jobs', 'events', 'mcp', ...ROOT];
const zone = (target, from, message) => ({ target: src(target), from: src(...from), message });
const LAYERS = [
  zone('util', ['store', 'media', 'platforms', ...UPPER], 'util/ is the bottom layer.'),
  zone('store', ['media', 'platforms', ...UPPER], 'store/ sits below media, platforms and the services.'),
  zone('media', ['platforms', ...UPPER], 'media/ sits below platforms and the services.'),
  zone('platforms', UPPER.filter((f) => f !== 'connect').concat('connect/index.ts', 'connect/token-refresher.ts'), 'platforms/ uses only the OAuth helpers of connect/; the registry is used from above.'),
  zone('scheduler', ['media', 'platforms', 'connect', 'publisher', 'http', 'admin', 'jobs', 'events', 'mcp', ...ROOT], 'the scheduler knows nothing about platforms, media or HTTP.'),
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '.tools/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', Buffer: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-imports': ['error', { patterns: [NO_CLI] }],
    },
  },
  {
    files: ['packages/core/src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['node:*', 'better-sqlite3', 'got', 'hono', '@socialpub/daemon', '@socialpub/sdk'], message: 'core has no I/O and depends on nothing of ours.' },
      ] }],
    },
  },
  {
    files: ['packages/sdk/src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['@socialpub/daemon', 'better-sqlite3', 'hono'], message: 'The SDK carries no daemon code (cli -> sdk -> core).' },
      ] }],
    },
  },
  {
    files: ['packages/mcp/src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['@socialpub/daemon', '@socialpub/sdk', 'better-sqlite3', 'got', 'hono'], message: 'The MCP tools reach the daemon only through SocialPubBackend (cli -> mcp -> core, daemon -> mcp).' },
      ] }],
    },
  },
  {
    files: ['**/*.mjs', '**/*.cjs', 'bin/**', 'bench/**', 'examples/**'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', Buffer: 'readonly', performance: 'readonly' } },
  },
  {
    // Layers of the daemon; import circles are checked by scripts/check-import-cycles.mjs (also in `pnpm lint`).
    files: ['packages/daemon/src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json'] })] },
    rules: { 'import-x/no-restricted-paths': ['error', { zones: LAYERS }] },
  },
);
