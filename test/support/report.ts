/**
 * A suite's summary (the hostile-input counts, the fault-injection table): printed with `VERBOSE=1`, so that
 * `npm test` stays quiet unless something fails.
 */
export const report = (text: string) => {
  if (process.env.VERBOSE === '1') console.log(text);
};
