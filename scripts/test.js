// `npm test`: every check a change must pass. The build first, then two lanes side by side:
//
// - the static checks: type-check, lint, validate (the bundle's definition), one after another;
// - the suites: jest's two projects, unit and end-to-end, in one run of two workers (jest.config.js), so neither
//   waits for the other's last file.
//
// One after another they left a core idle for the length of the static checks, and the end-to-end suites spend
// seconds waiting (answers slower than the app's time-out, child processes), which the checks fill. A line as each
// stage starts and ends, with its time (jest's projects through test/support/stage-reporter.js), and every 30 s a
// line of what is still running, so a long run never looks hung. A stage's own output is printed when it ends, under
// its line, so two lanes never interleave; the first failure stops the other lane, and the run exits non-zero.
const { spawn } = require('node:child_process');
const { setInterval, clearInterval } = require('node:timers');

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  process.stdout.write(
    [
      'npm test: build, then type-check, lint and validate beside the unit and end-to-end suites.',
      '',
      '  VERBOSE=1 npm test   jest prints a line a test file and what the suites print',
      '',
      'One stage alone: npm run build | typecheck | lint | validate | test:unit | test:e2e;',
      'one test file: npx jest <file>. What each stage checks: docs/maintaining.md.',
      '',
    ].join('\n'),
  );
  process.exit(0);
}

/** Stages by name: the npm script each runs. jest's two projects are one script, named by its reporter's lines. */
const STAGES = { build: 'build', 'type-check': 'typecheck', lint: 'lint', validate: 'validate' };
const SUITES = 'unit and end-to-end';
const LANES = [['type-check', 'lint', 'validate'], [SUITES]];

const started = Date.now();
const running = new Map(); // name → {child, started}
/** The suites' progress from the reporter's lines: project → "done of total". */
const progress = new Map();
let failed = false;

const secondsSince = (t) => ((Date.now() - t) / 1000).toFixed(1);
const elapsed = (t) => {
  const s = Math.round((Date.now() - t) / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
};
const say = (line) => process.stdout.write(`${line}\n`);

/** The reporter's `STAGE …` lines, printed as they come; answers whether the line was one. */
const stageLine = (line) => {
  const m = /^STAGE (start|progress|end) (.*)$/.exec(line);
  if (!m) return false;
  const [, kind, rest] = m;
  if (kind === 'start') {
    const [, name, total] = /^(\S+) \((\d+) files?\)$/.exec(rest) ?? [];
    if (name) progress.set(name, `0 of ${total} files`);
    say(`▶ ${rest}`);
  } else if (kind === 'end') {
    const [, name, result, detail] = /^(\S+) (passed|failed) (.*)$/.exec(rest) ?? [];
    progress.delete(name);
    say(`${result === 'passed' ? '✓' : '✗'} ${name} ${detail}`);
  } else {
    const [name, done, total, , file] = rest.split(' ');
    progress.set(name, `${done} of ${total} files`);
    if (file) say(`  ✗ ${name}: ${require('node:path').relative(process.cwd(), file)} failed`);
  }
  return true;
};

/** `npm run <script>` for a stage, its output kept and printed when it ends; resolves with whether it passed. */
const step = (name) =>
  new Promise((resolve) => {
    const script = STAGES[name] ?? 'test:suites';
    const since = Date.now();
    if (STAGES[name]) say(`▶ ${name}`);
    // A process group of its own, so a failure elsewhere stops it and whatever it started (jest's workers).
    const child = spawn('npm', ['run', '--silent', script], {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NPM_TEST_STAGES: '1' },
    });
    running.set(name, { child, since });
    const output = [];
    let partial = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (text) => {
      const lines = (partial + text).split('\n');
      partial = lines.pop();
      for (const line of lines) if (!stageLine(line)) output.push(`${line}\n`);
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text) => output.push(text));
    child.on('close', (code, signal) => {
      running.delete(name);
      if (partial && !stageLine(partial)) output.push(partial);
      const text = output.join('').trim();
      if (signal && failed) {
        say(`— ${name}: stopped (${secondsSince(since)} s)`);
        return resolve(false);
      }
      const ok = code === 0;
      const how = ok ? '' : signal ? `, killed by ${signal}` : `, exit code ${code}`;
      if (STAGES[name] || !ok) say(`${ok ? '✓' : '✗'} ${name} (${secondsSince(since)} s${how})`);
      if (text) say(`${text}\n`);
      resolve(ok);
    });
  });

const stopAll = () => {
  for (const { child } of running.values()) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
};

const lane = async (names) => {
  for (const name of names) {
    if (failed) return;
    if (!(await step(name))) {
      failed = true;
      stopAll();
    }
  }
};

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    failed = true;
    stopAll();
  });
}

// What is still running, every 30 s: the checks by their time, the suites by their files.
const heartbeat = setInterval(() => {
  const parts = [...running].flatMap(([name, { since }]) =>
    STAGES[name]
      ? [`${name} ${elapsed(since)}`]
      : progress.size
        ? [...progress].map(([project, done]) => `${project} ${done}`)
        : [`${name} starting`],
  );
  if (parts.length) say(`… ${elapsed(started)}: still running ${parts.join(', ')}`);
}, 30_000);

(async () => {
  say(`npm test: build, then ${LANES[0].join(', ')} beside the ${SUITES} suites`);
  if (await step('build')) await Promise.all(LANES.map(lane));
  else failed = true;
  clearInterval(heartbeat);
  say(failed ? `npm test failed (${elapsed(started)})` : `npm test passed (${elapsed(started)})`);
  process.exitCode = failed ? 1 : 0;
})();
