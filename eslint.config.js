import js from '@eslint/js';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';
import { layerZones } from './scripts/layers.mjs';
const NO_CLI = { group: ['**/cli/src/**'], message: 'Nothing imports the CLI.' };

/**
 * The layers of every package (scripts/layers.mjs, lowest first; docs/architecture.md,
 * "Layers"): a folder or root file of a package's src/ imports its own layer and those
 * below, never one above. `pnpm lint` also runs scripts/check-layers.mjs, which fails when an
 * entry of a src/ is in no layer, so every folder and root file is covered.
 */
const LAYERS = layerZones();

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
    // Layers of every package; import circles are checked by scripts/check-import-cycles.mjs (also in `pnpm lint`).
    files: ['packages/*/src/**/*.ts', 'packages/*/src/**/*.tsx'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.json'] })] },
    rules: { 'import-x/no-restricted-paths': ['error', { zones: LAYERS }] },
  },
);
