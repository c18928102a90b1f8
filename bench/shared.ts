/** What every section of `npm run bench` shares: the Node it runs under, medians, the printed tables. */
import App from '../index';

export const nodeBin = process.execPath;

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export const table = (title: string, head: string[], rows: Array<Array<string | number>>) => {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells: Array<string | number>) =>
    cells.map((c, i) => String(c).padEnd(widths[i]!)).join('  ');
  console.log(`\n## ${title}\n\n${line(head)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  for (const r of rows) console.log(line(r));
};

export type Fn = (z: unknown, bundle: unknown) => unknown;

/** The app's operations of one kind, their functions callable as appTester calls them. */
export const ops = (kind: 'triggers' | 'creates' | 'searches') =>
  App[kind] as unknown as Record<string, { operation: Record<string, Fn> }>;

/** What Zapier does with a ThrottledError: run the same step again after the delay it carries (sped up). */
export const waitOutThrottle = async (e: unknown, timeScale: number) => {
  if ((e as Error).name !== 'ThrottledError') throw e;
  const delay = Number(JSON.parse((e as Error).message).delay ?? 60);
  await new Promise((r) => setTimeout(r, (delay * 1000) / timeScale));
};
