// ESLint flat config: type-aware typescript-eslint everywhere, plus the architecture rules of
// docs/conventions: a service or the gateway imports only @wb/proto and @wb/platform (never
// another service, never a relative path out of its own package), logs through pino (no
// console), and reads process.env only in its env.ts.
import path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { defineConfig } from 'eslint/config';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';

const root = import.meta.dirname;

/** services/<name> or gateway for a file path, or undefined */
function packageDirOf(file) {
  const rel = path.relative(root, file).split(path.sep);
  if (rel[0] === 'services' && rel.length > 2) return path.join(root, rel[0], rel[1]);
  if (rel[0] === 'gateway') return path.join(root, 'gateway');
  return undefined;
}

/** Local rule: a relative import must stay inside the importing file's package. */
const noImportOutsidePackage = {
  meta: {
    type: 'problem',
    docs: { description: 'forbid relative imports that leave the package (use @wb/proto or @wb/platform)' },
    messages: {
      outside:
        "'{{source}}' reaches outside {{pkg}}/. A service or the gateway imports only its own files, @wb/proto and @wb/platform.",
    },
    schema: [],
  },
  create(context) {
    const pkg = packageDirOf(context.filename);
    if (!pkg) return {};
    const check = (node) => {
      const source = node?.type === 'Literal' && typeof node.value === 'string' ? node.value : undefined;
      if (!source || !source.startsWith('.')) return;
      const target = path.resolve(path.dirname(context.filename), source);
      if (target !== pkg && !target.startsWith(pkg + path.sep)) {
        context.report({ node, messageId: 'outside', data: { source, pkg: path.relative(root, pkg) } });
      }
    };
    return {
      ImportDeclaration: (n) => check(n.source),
      ExportNamedDeclaration: (n) => check(n.source),
      ExportAllDeclaration: (n) => check(n.source),
      ImportExpression: (n) => check(n.source),
      CallExpression: (n) => {
        if (n.callee.type === 'Identifier' && n.callee.name === 'require') check(n.arguments[0]);
      },
    };
  },
};

const TESTS = ['**/*.test.ts', '**/*.test.tsx', '**/test/**/*.ts'];

export default defineConfig(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '.data/**',
      'artifacts/**',
      'coverage/**',
      '**/*.config.*',
      '**/*.d.ts',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: root },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      // zod, pg rows, JSON and NATS payloads are `unknown`/`any` at the edges by nature; these
      // rules drown real findings there. Types are still checked by tsc --strict.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/require-await': 'off',
      // without noUncheckedIndexedAccess every `arr[i]!` is "unnecessary"; the habit is harmless
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      '@typescript-eslint/only-throw-error': 'error',
    },
  },
  // tests and their helpers are in no package tsconfig: a tsconfig just for ESLint types them
  {
    files: TESTS,
    languageOptions: {
      parserOptions: {
        projectService: false,
        project: ['./tsconfig.eslint.json', './scripts/tsconfig.json'],
        tsconfigRootDir: root,
      },
    },
    rules: {
      '@typescript-eslint/unbound-method': 'off', // expect(obj.method).toHaveBeenCalled()
    },
  },
  // architecture rules for deployables and the platform
  {
    files: ['services/**/*.ts', 'gateway/**/*.ts'],
    plugins: { wb: { rules: { 'no-import-outside-package': noImportOutsidePackage } } },
    rules: {
      'no-console': 'error',
      'wb/no-import-outside-package': 'error',
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^@wb/(?!(proto|platform)(/|$))',
              message:
                'A service or the gateway imports only @wb/proto and @wb/platform (talk to other services over NATS).',
            },
          ],
        },
      ],
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Read the environment only in env.ts (through its zod schema).',
        },
      ],
    },
  },
  {
    files: ['**/env.ts', ...TESTS, 'services/platform/src/testing/**'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: TESTS,
    rules: { 'no-console': 'off' },
  },
  // the web app: accessible JSX (jsx-a11y) and the rules of hooks, with react-hooks v7's
  // React-Compiler checks (we do not run the compiler; these still catch real bugs)
  {
    files: ['web/src/**/*.tsx'],
    ...jsxA11y.flatConfigs.recommended,
    rules: {
      ...jsxA11y.flatConfigs.recommended.rules,
      // a scrolling region must take the focus to be scrolled by keyboard (axe scrollable-region-focusable)
      'jsx-a11y/no-noninteractive-tabindex': ['error', { tags: [], roles: ['tabpanel', 'region'] }],
    },
  },
  {
    files: ['web/src/**/*.ts', 'web/src/**/*.tsx'],
    extends: [reactHooks.configs.flat['recommended-latest']],
    rules: {
      'react-hooks/exhaustive-deps': 'error',
      // its findings here are deliberate copies of a prop or server value into editable local state
      // (form prefills, a colour shown while dragged, "still processing" feeding the poll); the extra
      // render is harmless and rewriting them as render-time updates would only add code
      'react-hooks/set-state-in-effect': 'off',
    },
  },
  // k6 load scripts: plain JavaScript run by k6, not Node
  {
    files: ['infra/k6/**/*.js'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: {
      sourceType: 'module',
      globals: { __ENV: 'readonly', __VU: 'readonly', __ITER: 'readonly', console: 'readonly', open: 'readonly' },
    },
  },
);
