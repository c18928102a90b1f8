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
};
