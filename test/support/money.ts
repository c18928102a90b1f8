/** Riyals with two decimals, computed independently of the app's own helper. */
export const sar = (halalas: number): string =>
  `${halalas < 0 ? '-' : ''}${(Math.abs(halalas) / 100).toFixed(2)}`;

/**
 * Checks every `*_halalas` integer at any depth has its `*_sar` sibling, and answers how many it checked (so a
 * test can insist there were some). The unit and end-to-end suites share it.
 */
export const expectSarSiblings = (value: unknown, path = 'item'): number => {
  if (Array.isArray(value))
    return value.reduce<number>((n, v, i) => n + expectSarSiblings(v, `${path}[${i}]`), 0);
  if (!value || typeof value !== 'object') return 0;
  let checked = 0;
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    checked += expectSarSiblings(v, `${path}.${key}`);
    const base = /^(.*)_halalas$/.exec(key)?.[1];
    if (base !== undefined && typeof v === 'number') {
      expect([`${path}.${base}_sar`, (value as Record<string, unknown>)[`${base}_sar`]]).toEqual([
        `${path}.${base}_sar`,
        sar(v),
      ]);
      checked += 1;
    }
  }
  return checked;
};
