// zapier-platform-core ends the process (process.exit) once it has run 250 invocations in a process whose memory
// passes 450 MB: a safeguard for Zapier's workers. A jest worker holding a whole suite passes both marks, so the
// safeguard is switched off in tests; it has nothing to do with the behaviour under test.
jest.mock('zapier-platform-core/src/tools/memory-checker', () => () => undefined);
