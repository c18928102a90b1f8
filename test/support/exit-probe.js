/**
 * How jest's workers end, for a "worker process has failed to exit gracefully": loaded into jest and its workers
 * with NODE_OPTIONS, it appends to EXIT_PROBE (default: jest-exit-probe.log in the system's temporary folder) a line
 * per worker when jest asks it to end (its heap, and what is still open: its IPC and stdio pipes only when nothing
 * leaks), and, from jest's side, how long the worker then took to exit. Runs in band have no workers to report.
 *
 *   NODE_OPTIONS="--require $PWD/test/support/exit-probe.js" npx jest test/n8n; cat /tmp/jest-exit-probe.log
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const out = path.resolve(process.env.EXIT_PROBE || path.join(os.tmpdir(), 'jest-exit-probe.log'));
const note = (line) => fs.appendFileSync(out, `${line}\n`);
const MB = (n) => `${Math.round(n / 1e6)} MB`;
const END = 2; // jest-worker's CHILD_MESSAGE_END

if (process.send && process.argv[1]?.endsWith('processChild.js')) {
  process.on('message', function ending(message) {
    if (!Array.isArray(message) || message[0] !== END) return;
    process.removeListener('message', ending); // a listener keeps the IPC channel, and so the worker, alive
    const { heapUsed, heapTotal, rss } = process.memoryUsage();
    const open = process.getActiveResourcesInfo().join(', ');
    note(
      `worker ${process.pid} asked to end: heap ${MB(heapUsed)} used of ${MB(heapTotal)}, rss ${MB(rss)}; open: ${open}`,
    );
  });
} else if (!process.send) {
  const childProcess = require('node:child_process');
  const { fork } = childProcess;
  childProcess.fork = function (...args) {
    const child = fork.apply(this, args);
    const send = child.send;
    let asked;
    child.send = function (message, ...rest) {
      if (Array.isArray(message) && message[0] === END) asked = Date.now();
      return send.call(this, message, ...rest);
    };
    child.once('exit', (code, signal) => {
      if (asked)
        note(
          `worker ${child.pid} exited ${Date.now() - asked} ms after jest asked (${signal ?? `code ${code}`})`,
        );
    });
    return child;
  };
}
