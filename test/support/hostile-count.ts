import { report } from './report';

/**
 * The hostile-input suites count their cases by name and report the totals at the end of the file (`VERBOSE=1`
 * prints them): how many hostile cases ran and that none was accepted wrongly.
 */
export const caseCounter = (title: string) => {
  const counts: Record<string, number> = {};
  afterAll(() => {
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    report(
      `${title}: ${total} cases, none accepted wrongly\n${Object.entries(counts)
        .map(([k, v]) => `  ${String(v).padStart(6)}  ${k}`)
        .join('\n')}`,
    );
  });
  return (name: string) => (counts[name] = (counts[name] ?? 0) + 1);
};
