/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test/e2e'],
  testMatch: ['**/*.test.ts'],
  // 'ts' first: the root index.js (the build's entry) must not shadow index.ts in tests.
  moduleFileExtensions: ['ts', 'js', 'json'],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  setupFilesAfterEnv: ['<rootDir>/test/support/no-memory-kill.ts'],
  clearMocks: true,
  // app-fault-injection runs its cases concurrently (it.concurrent), so answers slower than the app's time-out
  // are waited out together; the other suites run their tests one by one.
  maxConcurrency: 16,
  // Both cores: shipped.test.ts (a bundle and a production install) runs beside the others instead of after them.
  maxWorkers: 2,
};
