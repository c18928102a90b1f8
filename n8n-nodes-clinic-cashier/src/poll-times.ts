/**
 * How far apart n8n's polls of a node can be, from its Poll Times (the `pollTimes` parameter n8n's loader adds to a
 * polling node): the items' modes become cron expressions (n8n-workflow's toCronExpression), and n8n polls at every
 * time of every item.
 */
import { CronUnreadable, longestCronGap } from './cron-gap';

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
  cronExpression?: unknown;
}

/** The longest gap of Poll Times in minutes, or why it cannot be known. */
export type PollGap = { minutes: number } | { unreadable: string };

/**
 * Every X is a cron step (every X minutes of the hour, or X hours of the day), which starts again at each hour or
 * day: gaps of X, and a shorter one where the step does not divide the hour or day; a step past it fires once.
 */
const gapOf = (item: PollTime): number | string => {
  if (item.mode && item.mode in FIXED) return FIXED[item.mode]!;
  if (item.mode === 'custom') {
    const expression = typeof item.cronExpression === 'string' ? item.cronExpression : '';
    try {
      return longestCronGap(expression);
    } catch (error) {
      if (error instanceof CronUnreadable)
        return `the Custom cron expression “${expression}” cannot be read: ${error.message}`;
      throw error;
    }
  }
  const every = Number(item.value);
  if (item.mode === 'everyX' && Number.isInteger(every) && every >= 1) {
    if (item.unit === 'minutes') return Math.min(every, 60);
    if (item.unit === 'hours') return Math.min(every, 24) * 60;
  }
  return `the Poll Times entry ${JSON.stringify(item)} is not one the node knows`;
};

/**
 * The longest time between two polls, in minutes. Polls of several items add up, so the longest gap is at most the
 * shortest of the items' own; an item that cannot be read, or no item, leaves it unknown.
 */
export const pollGap = (pollTimes: unknown): PollGap => {
  const items = (pollTimes as { item?: PollTime[] } | undefined)?.item ?? [];
  if (!items.length) return { unreadable: 'Poll Times has no entry' };
  const gaps = items.map(gapOf);
  const unreadable = gaps.find((g): g is string => typeof g === 'string');
  return unreadable ? { unreadable } : { minutes: Math.min(...(gaps as number[])) };
};

/** The longest time between two polls in minutes, or undefined when it cannot be known. */
export const longestPollGap = (pollTimes: unknown): number | undefined => {
  const gap = pollGap(pollTimes);
  return 'minutes' in gap ? gap.minutes : undefined;
};
