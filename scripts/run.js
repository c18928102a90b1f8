// One way for the build scripts to run a child process to its end: a failure says how the child ended and what it
// printed on both streams (the Zapier CLI and npm print their errors to stdout, and a child killed by a signal, as a
// loaded machine's memory killer does, prints nothing), not only Node's "Command failed: <command>".
const { execFileSync } = require('node:child_process');

/** What `error`, thrown by execFileSync, says of how the child ended. */
const howItEnded = (error) => {
  if (error.signal) return `killed by ${error.signal}`;
  if (typeof error.code === 'string') return error.code; // ENOENT, ENOBUFS…
  return `exit code ${error.status}`;
};

/** `file args` run to its end with its output kept; answers its stdout. */
const run = (file, args, options = {}) => {
  try {
    return execFileSync(file, args, { stdio: 'pipe', maxBuffer: 64 * 1024 * 1024, ...options });
  } catch (error) {
    const printed = [error.stdout, error.stderr]
      .map((out) => String(out ?? '').trim())
      .filter(Boolean)
      .join('\n')
      .split('\n')
      .slice(-40)
      .join('\n');
    throw new Error(
      `${[file, ...args].join(' ')} failed (${howItEnded(error)})${printed ? `:\n${printed}` : ', printing nothing'}`,
      { cause: error },
    );
  }
};

module.exports = { run };
