// ESLint for the page's ES modules (src/assets): the recommended rules,
// browser globals, and no import cycle (import/no-cycle) nor unresolved or
// misnamed import between them. scripts/test.sh installs the packages of
// assets-lint/package-lock.json with npm ci into target/js-lint (outside
// the sources), from where this file loads them (KNIGHTS_JS_LINT names
// another folder). Run it from this crate's folder (ESLint reads the files
// patterns from the working directory).
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const installed = process.env.KNIGHTS_JS_LINT || path.join(here, '../../target/js-lint');
const require = createRequire(path.join(installed, 'package.json'));
const js = require('@eslint/js');
const importPlugin = require('eslint-plugin-import');
const globals = require('globals');

export default [
  {
    files: ['src/assets/**/*.js'],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: globals.browser,
    },
    plugins: { import: importPlugin },
    rules: {
      ...js.configs.recommended.rules,
      'import/no-cycle': ['error', { maxDepth: Infinity }],
      'import/no-unresolved': 'error',
      'import/named': 'error',
      'import/no-self-import': 'error',
    },
  },
];
