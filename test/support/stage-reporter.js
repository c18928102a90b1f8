/**
 * `npm test`'s lines for the two jest projects, unit and end-to-end, which run in one jest process (jest.config.js):
 * a line as each project's first file starts, its progress, and a line when its last file ends, with its time.
 * scripts/test.js prints them as they come, among the other stages' lines (the lines start with `STAGE `, which it
 * strips); jest's own summary follows when the run ends. On only when scripts/test.js asks (`NPM_TEST_STAGES=1`).
 *
 * How many files each project has is known only to the sequencer (test/support/sequencer.js), which runs in the
 * same process before the first file and leaves the count here.
 */
const NAMES = { unit: 'unit', e2e: 'end-to-end' };

/** Files per project, from the sequencer. */
const planned = new Map();
const plan = (tests) => {
  planned.clear();
  for (const test of tests) {
    const project = test.context.config.displayName?.name ?? 'unit';
    planned.set(project, (planned.get(project) ?? 0) + 1);
  }
};

const projectOf = (test) => test.context.config.displayName?.name ?? 'unit';
const say = (line) => process.stdout.write(`STAGE ${line}\n`);
const files = (n) => `${n} file${n === 1 ? '' : 's'}`;

class StageReporter {
  constructor() {
    this.started = new Map();
    this.done = new Map();
    this.failed = new Map();
  }

  onTestFileStart(test) {
    const project = projectOf(test);
    if (this.started.has(project)) return;
    this.started.set(project, Date.now());
    this.done.set(project, 0);
    this.failed.set(project, 0);
    say(`start ${NAMES[project] ?? project} (${files(planned.get(project) ?? 0)})`);
  }

  onTestFileResult(test, result) {
    const project = projectOf(test);
    const done = this.done.get(project) + 1;
    this.done.set(project, done);
    const failedHere = result.numFailingTests > 0 || Boolean(result.testExecError);
    if (failedHere) this.failed.set(project, this.failed.get(project) + 1);
    const total = planned.get(project) ?? 0;
    const name = NAMES[project] ?? project;
    say(`progress ${name} ${done} ${total}${failedHere ? ` failed ${result.testFilePath}` : ''}`);
    if (done !== total) return;
    const seconds = ((Date.now() - this.started.get(project)) / 1000).toFixed(1);
    const failed = this.failed.get(project);
    say(
      `end ${name} ${failed ? 'failed' : 'passed'} (${files(total)}, ${failed ? `${failed} failed, ` : ''}${seconds} s)`,
    );
  }

  getLastError() {
    return undefined;
  }
}

module.exports = StageReporter;
module.exports.plan = plan;
