/**
 * One jest run over every package. Unit tests sit beside the code (src/**\/*.test.ts); integration
 * tests (test/**\/*.int.test.ts) talk to the real PostgreSQL, NATS and Redis through isolated
 * databases, subject prefixes and key prefixes. Packages import each other from dist/, so the
 * suite runs after `tsc -b` (make test does both).
 */
const { existsSync } = require('node:fs');
const path = require('node:path');

// a package joins the run once its folder exists (a new service is added here before it lands)
const packages = [
  'proto',
  'services/platform',
  'services/auth',
  'services/boards',
  'services/teams',
  'services/billing',
  'services/realtime',
  'services/files',
  'services/converter',
  'services/calls',
  'services/courses',
  'gateway',
  'scripts',
].filter((dir) => existsSync(path.join(__dirname, dir)));

const tsJest = (dir) => ({
  '^.+\\.tsx?$': ['ts-jest', { tsconfig: `<rootDir>/${dir}/tsconfig.json`, diagnostics: false }],
});

/**
 * The web app's tests are `*.spec.ts(x)`: they live in web/tsconfig.json (typed and linted with
 * the app), while `*.test.ts` files are typed by tsconfig.eslint.json, which covers the packages.
 * `web` runs component and unit tests in jsdom; `web-e2e` drives Debian's Chromium against the
 * built app served by a real gateway and auth service (make test builds web/dist first).
 */
const webTransform = {
  '^.+\\.tsx?$': ['ts-jest', { tsconfig: '<rootDir>/web/tsconfig.test.json', diagnostics: false }],
};
const webProjects = [
  {
    displayName: 'web',
    rootDir: __dirname,
    roots: ['<rootDir>/web/src'],
    testEnvironment: 'jsdom',
    testMatch: ['**/?(*.)spec.ts', '**/?(*.)spec.tsx'],
    moduleNameMapper: {
      '\\.css$': '<rootDir>/web/src/testing/styleStub.ts',
      '\\.ttf\\?url$': '<rootDir>/web/src/testing/assetUrlStub.ts',
      // import.meta.env is Vite's: the tests' build flags instead
      '^\\./buildFlags$': '<rootDir>/web/src/testing/buildFlags.ts',
      // rbush ships ES modules only (Vite bundles them); jest loads its self-contained UMD build
      '^rbush$': '<rootDir>/node_modules/rbush/rbush.js',
    },
    setupFiles: ['<rootDir>/web/src/testing/jsdomSetup.ts'],
    transform: webTransform,
  },
  {
    displayName: 'web-e2e',
    rootDir: __dirname,
    roots: ['<rootDir>/web/e2e'],
    testEnvironment: 'node',
    testMatch: ['**/?(*.)e2e.spec.ts'],
    transform: webTransform,
    testTimeout: 120000,
  },
];

/** @type {import('jest').Config} */
module.exports = {
  testTimeout: 30000,
  projects: [
    ...packages.map((dir) => ({
      displayName: dir,
      rootDir: __dirname,
      roots: [`<rootDir>/${dir}`],
      testEnvironment: 'node',
      testMatch: ['**/?(*.)test.ts', '**/?(*.)int.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', '/dist/'],
      transform: tsJest(dir),
    })),
    ...webProjects,
  ],
};
