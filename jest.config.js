/**
 * Both jest projects: `unit` (test/, nock, no network) and `e2e` (test/e2e/, the app against the local sandbox over
 * loopback). `npx jest <file>` runs a file of either; `npm run test:unit` and `npm run test:e2e` one project;
 * `npm test` both in one run, so the two workers take the longest files of either first and neither project waits
 * for the other's last file.
 * @type {import('jest').Config}
 */
const shared = {
  testEnvironment: 'node',
  testMatch: ['**/*.test.ts'],
  // 'ts' first: the root index.js (the build's entry) must not shadow index.ts in tests.
  moduleFileExtensions: ['ts', 'js', 'json'],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  setupFilesAfterEnv: [
    '<rootDir>/test/support/no-memory-kill.ts',
    '<rootDir>/test/support/compile-once.ts',
    '<rootDir>/test/support/own-http.ts',
  ],
  clearMocks: true,
};

module.exports = {
  // Both cores: jest's default on two is one worker (everything in band); two cut the unit run's wall time to 0.82×
  // (paired runs, farm-bench -n 3 --vs "npx jest --maxWorkers=1" -- npx jest --maxWorkers=2, on a loaded machine).
  maxWorkers: 2,
  // Quiet unless something fails: jest's summary reporter prints the failures in full and the counts; VERBOSE=1
  // gives the default reporter, with a line a file and what the suites print (test/support/report.ts).
  // Under `npm test`, also a line as each project starts and ends (test/support/stage-reporter.js).
  reporters: [
    ...(process.env.VERBOSE === '1' ? ['default'] : [['summary', { summaryThreshold: 0 }]]),
    ...(process.env.NPM_TEST_STAGES === '1' ? ['<rootDir>/test/support/stage-reporter.js'] : []),
  ],
  // The suites prove behaviour, not speed (speed is `npm run bench`): on a loaded machine (shared CI runners, the
  // static checks beside jest on two cores) jest's default 5 s per test failed Transfer pages of 25 items with
  // patients and the shipped build's first deliveries, so a test has 30 s; a hang still fails.
  testTimeout: 30_000,
  // A worker ends after its event loop empties; Node then unmaps the worker's whole V8 heap (200-300 MB after a run
  // of files), which took 0.5-1.7 s at load 8-12 on two cores (perf: Heap::TearDown's munmap calls), past jest's
  // 500 ms, so a green run printed "failed to exit gracefully". A handle a test leaks keeps a worker from ever
  // ending, and still gets that warning, after this wait.
  workerGracefulExitTimeout: 10_000,
  // A fresh clone's first run: the end-to-end files first (test/support/sequencer.js).
  testSequencer: '<rootDir>/test/support/sequencer.js',
  projects: [
    {
      ...shared,
      displayName: 'unit',
      roots: ['<rootDir>/test'],
      testPathIgnorePatterns: ['/node_modules/', '/test/e2e/'],
      setupFiles: ['<rootDir>/test/setup-env.ts'],
    },
    { ...shared, displayName: 'e2e', roots: ['<rootDir>/test/e2e'] },
  ],
};
