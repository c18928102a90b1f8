/* eslint-disable @typescript-eslint/no-require-imports */
const { run } = require('../scripts/run') as {
  run: (file: string, args: string[], options?: object) => Buffer;
};

/*
 * scripts/run.js, how the build scripts run npm, the Zapier CLI and unzip: a failing child shows its own error,
 * wherever it printed it, and how it ended, not only "Command failed: <command>".
 */

const node = (code: string) => () => run(process.execPath, ['-e', code]);

test('answers what the child printed', () => {
  expect(String(node('process.stdout.write("built")')())).toBe('built');
});

test('a failure names the command, its exit code and what it printed on stdout and stderr', () => {
  expect(node('console.log("Error: no dist/ to zip"); console.error("see above"); process.exit(3)')).toThrow(
    /-e .*failed \(exit code 3\):\nError: no dist\/ to zip\nsee above$/,
  );
});

test('a child killed by a signal says so, and that it printed nothing', () => {
  expect(node('process.kill(process.pid, "SIGKILL")')).toThrow(
    /failed \(killed by SIGKILL\), printing nothing$/,
  );
});

test('a command that does not exist says so', () => {
  expect(() => run('no-such-command-here', [])).toThrow(/^no-such-command-here failed \(ENOENT\)/);
});
