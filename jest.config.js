/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  // The end-to-end suites run against the sandbox on their own: npm run test:e2e (jest.e2e.config.js).
  testPathIgnorePatterns: ['/node_modules/', '/test/e2e/'],
  testMatch: ['**/*.test.ts'],
  // 'ts' first: the root index.js (the build's entry) must not shadow index.ts in tests.
  moduleFileExtensions: ['ts', 'js', 'json'],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  setupFiles: ['<rootDir>/test/setup-env.ts'],
  setupFilesAfterEnv: ['<rootDir>/test/support/no-memory-kill.ts'],
  clearMocks: true,
  // The unit suites prove behaviour, not speed (speed is `npm run bench`): on a loaded machine (shared CI runners, a
  // few test runs at once on two cores) jest's default 5 s per test failed Transfer pages of 25 items with patients,
  // so a test has 30 s; a hang still fails.
  testTimeout: 30_000,
  // Both cores: jest's default on two is one worker (the whole unit run in band); two cut its wall time to 0.82×
  // (paired runs, farm-bench -n 3 --vs "npx jest --maxWorkers=1" -- npx jest --maxWorkers=2, on a loaded machine).
  maxWorkers: 2,
};
