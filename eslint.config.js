import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import ts from 'typescript-eslint';

const cycleParser = createRequire(import.meta.url)('./scripts/eslint-cycle-parser.cjs');

/** Forbids Node's modules in the app, and the given imports in one folder (tests excepted). */
function layer(files, forbidden, message) {
  const patterns = [{ group: ['node:*'], message: 'the app runs in browsers and workers' }];
  if (forbidden.length) patterns.push({ group: forbidden, message });
  return {
    files: [`${files}/*.ts`, `${files}/*.svelte`, `${files}/*.js`],
    ignores: ['src/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns }] },
  };
}

export default ts.config(
  {
    ignores: ['dist/', 'node_modules/', 'samples/', 'test-results/', 'playwright-report/', 'bench-results/'],
  },
  js.configs.recommended,
  ...ts.configs.recommended,
  ...svelte.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node, ...globals.worker } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // The app runs in browsers and workers: only tests and tooling may use Node's modules. And the
  // layers are checked, not hoped for (docs/architecture.md draws them):
  //   core                imports nothing of ours
  //   models, sandbox     never the screen, the page's owners, or the workers
  //   run, settings       never the screen, the page's owners, or the workers
  //   workers             never the screen or the page's owners
  //   service-worker      never the screen, the page's owners or the agents' workers
  //   page                never the screen (it runs conversations: the screen subscribes)
  //   ui                  never the workers (it reaches them through the page's owners)
  layer('src/**', []),
  layer('src/core/**', ['../*', '!./*'], 'core imports nothing of ours'),
  ...['models', 'sandbox', 'run', 'settings'].map((folder) =>
    layer(
      `src/${folder}/**`,
      ['**/ui/**', '**/page/**', '**/workers/**'],
      `${folder} is below the workers and the page`,
    ),
  ),
  layer('src/workers/**', ['**/ui/**', '**/page/**'], 'workers do not import the page'),
  layer(
    'src/service-worker/**',
    ['**/ui/**', '**/page/**', '**/workers/**'],
    'the service worker stands apart from the page and the agents',
  ),
  layer('src/page/**', ['**/ui/**'], "the page's owners are below the screen"),
  layer('src/ui/**', ['**/workers/**'], "the screen reaches the workers through the page's owners"),
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: { parserOptions: { parser: ts.parser, extraFileExtensions: ['.svelte'] } },
  },
  // No circle between our modules, type imports included: a circle hides which module is below
  // the other, and the layers above only hold if every import points one way. The cycle rule skips
  // type imports, so src/ is parsed with a parser that reads each import as a value import
  // (scripts/eslint-cycle-parser.cjs); the scopes the other rules check are TypeScript's own.
  {
    files: ['src/**/*.ts', 'src/**/*.svelte', 'src/**/*.js'],
    plugins: { 'import-x': importX },
    languageOptions: { parserOptions: { parser: cycleParser, extraFileExtensions: ['.svelte'] } },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
      'import-x/extensions': ['.ts', '.js', '.svelte'],
      'import-x/parsers': {
        [fileURLToPath(new URL('scripts/eslint-cycle-parser.cjs', import.meta.url))]: ['.ts', '.js'],
        'svelte-eslint-parser': ['.svelte'],
      },
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['src/**/*.ts', 'src/**/*.js'],
    ignores: ['**/*.svelte.ts'],
    languageOptions: { parser: cycleParser },
  },
  // The Node-like world inside QuickJS (src/sandbox/runtimes/node-prelude/): QuickJS has the
  // language's built-ins and nothing of a browser's or Node's; what a script sees of Node, the
  // prelude defines itself, over the one global the host hands it (host.js).
  {
    files: ['src/sandbox/runtimes/node-prelude/**/*.js'],
    languageOptions: {
      globals: Object.fromEntries(
        Object.keys({ ...globals.browser, ...globals.node, ...globals.worker })
          .filter((name) => !(name in globals.es2021))
          .map((name) => [name, 'off']),
      ),
    },
  },
);
