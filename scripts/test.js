// `npm test`: every check a change must pass, in two lanes side by side after the bundle.
//
// - checks: `typecheck`, `lint`, `validate` (the bundle's definition), one after another, each a single process;
// - suites: jest's two projects in one run of two workers (jest.config.js).
//
// One after another they left a core idle for the length of the static checks, and the end-to-end suites spend
// seconds waiting (answers slower than the app's time-out, child processes), which the checks now fill. Each step's
// output is printed when it ends, under its name and time; the first failure stops the other lane, and the run
// exits non-zero.
const { spawn } = require('node:child_process');

const LANES = [['typecheck', 'lint', 'validate'], ['test:suites']];

const running = new Set();
let failed = false;

/** `npm run <script>`, its output kept and printed when it ends; resolves with whether it passed. */
const step = (script) =>
  new Promise((resolve) => {
    const started = Date.now();
    // A process group of its own, so a failure elsewhere stops it and whatever it started (jest's workers).
    const child = spawn('npm', ['run', '--silent', script], {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.add(child);
    const output = [];
    for (const stream of [child.stdout, child.stderr]) {
      stream.setEncoding('utf8');
      stream.on('data', (text) => output.push(text));
    }
    child.on('close', (code, signal) => {
      running.delete(child);
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const text = output.join('').trim();
      if (signal && failed) {
        process.stdout.write(`— ${script}: stopped (${seconds} s)\n`);
        return resolve(false);
      }
      const ok = code === 0;
      process.stdout.write(`${ok ? '✓' : '✗'} ${script} (${seconds} s)\n${text ? `${text}\n\n` : ''}`);
      resolve(ok);
    });
  });

const stopAll = () => {
  for (const child of running) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
};

const lane = async (scripts) => {
  for (const script of scripts) {
    if (failed) return;
    if (!(await step(script))) {
      failed = true;
      stopAll();
    }
  }
};

process.on('SIGINT', () => {
  failed = true;
  stopAll();
});
process.on('SIGTERM', () => {
  failed = true;
  stopAll();
});

(async () => {
  const started = Date.now();
  if (await step('build')) await Promise.all(LANES.map(lane));
  else failed = true;
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  process.stdout.write(failed ? `npm test failed (${seconds} s)\n` : `npm test passed (${seconds} s)\n`);
  process.exitCode = failed ? 1 : 0;
})();
