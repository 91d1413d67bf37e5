/**
 * One jest run over every package. Unit tests sit beside the code (src/**\/*.test.ts); integration
 * tests (test/**\/*.int.test.ts) talk to the real PostgreSQL, NATS and Redis through isolated
 * databases, subject prefixes and key prefixes. Packages import each other from dist/, so the
 * suite runs after `tsc -b` (make test does both).
 */
const packages = ['proto', 'services/platform', 'services/auth', 'services/boards', 'gateway', 'scripts'];

const tsJest = (dir) => ({
  '^.+\\.tsx?$': ['ts-jest', { tsconfig: `<rootDir>/${dir}/tsconfig.json`, diagnostics: false }],
});

/** @type {import('jest').Config} */
module.exports = {
  testTimeout: 30000,
  projects: packages.map((dir) => ({
    displayName: dir,
    rootDir: __dirname,
    roots: [`<rootDir>/${dir}`],
    testEnvironment: 'node',
    testMatch: ['**/?(*.)test.ts', '**/?(*.)int.test.ts'],
    testPathIgnorePatterns: ['/node_modules/', '/dist/'],
    transform: tsJest(dir),
  })),
};
