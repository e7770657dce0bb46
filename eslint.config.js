import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '.tools/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', Buffer: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/cli/src/**'], message: 'Nothing imports the CLI.' }] }],
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
    files: ['**/*.mjs', '**/*.cjs', 'bin/**', 'bench/**', 'examples/**'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', Buffer: 'readonly', performance: 'readonly' } },
  },
);
