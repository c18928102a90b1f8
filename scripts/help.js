// `--help` (or `-h`) on a script: prints what it does and exits before it starts anything.
/** Prints `text` and exits 0 when the command line asks for help; returns otherwise. */
const helpIfAsked = (text) => {
  const args = process.argv.slice(2);
  if (!args.includes('--help') && !args.includes('-h')) return;
  process.stdout.write(`${text.trim()}\n`);
  process.exit(0);
};

module.exports = { helpIfAsked };
