/**
 * The order jest gives the two workers their files. With the times of an earlier run (jest's cache) its own order
 * stands: failed files first, then the slowest. Without them (a fresh clone, CI) jest orders by file size, which put
 * the production build of `shipped.test.ts`, a small file, last, alone on one worker. Then the end-to-end files go
 * first: they hold the longest ones (that build, time-outs waited out) and spend much of it waiting, which the
 * static checks running beside jest (scripts/test.js) fill; the unit files follow, largest first.
 */
const Sequencer = require('@jest/test-sequencer').default;
const { plan } = require('./stage-reporter');

const isEndToEnd = (test) => test.context.config.displayName?.name === 'e2e';

class EndToEndFirst extends Sequencer {
  sort(tests) {
    plan(tests); // how many files each project has, for `npm test`'s lines
    const sorted = super.sort(tests);
    if (sorted.some((test) => test.duration != null)) return sorted;
    return [...sorted.filter(isEndToEnd), ...sorted.filter((test) => !isEndToEnd(test))];
  }
}

module.exports = EndToEndFirst;
