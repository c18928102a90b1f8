/**
 * How far apart n8n's polls of a node can be, from its Poll Times (the `pollTimes` parameter n8n's loader adds to a
 * polling node): the items' modes become cron expressions (n8n-workflow's toCronExpression), and n8n polls at every
 * time of every item.
 */

/** The longest gap of each fixed mode, in minutes (a month of 31 days). */
const FIXED: Record<string, number> = {
  everyMinute: 1,
  everyHour: 60,
  everyDay: 1440,
  everyWeek: 10_080,
  everyMonth: 44_640,
};

interface PollTime {
  mode?: string;
  value?: unknown;
  unit?: string;
}

/**
 * Every X is a cron step (every X minutes of the hour, or X hours of the day), which starts again at each hour or
 * day: gaps of X, and a shorter one where the step does not divide the hour or day; a step past it fires once.
 */
const gapOf = (item: PollTime): number | undefined => {
  if (item.mode && item.mode in FIXED) return FIXED[item.mode];
  const every = Number(item.value);
  if (item.mode !== 'everyX' || !Number.isInteger(every) || every < 1) return undefined;
  if (item.unit === 'minutes') return Math.min(every, 60);
  if (item.unit === 'hours') return Math.min(every, 24) * 60;
  return undefined;
};

/**
 * The longest time between two polls, in minutes, or undefined when only Custom cron expressions set it. Polls of
 * several items add up, so the longest gap is at most the shortest of the items' own.
 */
export const longestPollGap = (pollTimes: unknown): number | undefined => {
  const items = (pollTimes as { item?: PollTime[] } | undefined)?.item ?? [];
  const gaps = items.map(gapOf).filter((g): g is number => g !== undefined);
  return gaps.length ? Math.min(...gaps) : undefined;
};
