/**
 * The "What arrives" samples of a page of docs (its ```json blocks, in order) held to what a test received, so
 * they cannot drift from the app. A block is a shortened item: the keys it shows are the ones compared (an array
 * element by element, a longer array by its last shown element's keys). `RECORD=1` writes the received values
 * into the blocks instead, keeping their keys, and formats the page as Prettier would.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { recording } from './recorder';

type Json = unknown;

const BLOCK = /```json\n([\s\S]*?)\n```/g;

/** The received value cut to the keys the shown one has. */
export const shortened = (shown: Json, got: Json): Json => {
  if (Array.isArray(shown)) {
    if (!Array.isArray(got) || !shown.length) return got;
    return got.map((g, i) => shortened(shown[Math.min(i, shown.length - 1)], g));
  }
  if (shown && typeof shown === 'object') {
    if (!got || typeof got !== 'object' || Array.isArray(got)) return got;
    return Object.fromEntries(
      Object.keys(shown).map((k) => [
        k,
        shortened((shown as Record<string, Json>)[k], (got as Record<string, Json>)[k]),
      ]),
    );
  }
  return got;
};

const blocksOf = (text: string) => [...text.matchAll(BLOCK)];

const WIDTH = 110;
const flat = (v: Json) => v === null || typeof v !== 'object';
const inline = (v: Json): string =>
  Array.isArray(v)
    ? `[${v.map(inline).join(', ')}]`
    : v && typeof v === 'object'
      ? `{ ${Object.entries(v)
          .map(([k, x]) => `${JSON.stringify(k)}: ${inline(x)}`)
          .join(', ')} }`
      : JSON.stringify(v);

/** JSON as the page writes it: a small object of plain values (a payment, the customer) on one line. */
const written = (v: Json, indent = ''): string => {
  if (flat(v)) return JSON.stringify(v);
  const entries: Array<[string, Json]> = Array.isArray(v)
    ? v.map((x) => ['', x])
    : Object.entries(v as object);
  const one = inline(v);
  if (indent && entries.every(([, x]) => flat(x)) && indent.length + one.length <= WIDTH - 20) return one;
  const inner = `${indent}  `;
  const rows = entries.map(([k, x]) => `${inner}${k ? `${JSON.stringify(k)}: ` : ''}${written(x, inner)}`);
  return Array.isArray(v) ? `[\n${rows.join(',\n')}\n${indent}]` : `{\n${rows.join(',\n')}\n${indent}}`;
};

/** The page's `n`-th json block (from 1), parsed. */
export const docSample = (file: string, n: number): Json => {
  const block = blocksOf(readFileSync(file, 'utf8'))[n - 1];
  if (!block) throw new Error(`${file} has no json block #${n}`);
  return JSON.parse(block[1]!) as Json;
};

/**
 * Checks (or with RECORD=1 rewrites) the page's `n`-th json block against the item a test received: the same
 * keys, the same values. The run it comes from must be repeatable (a fixed clock and seed).
 */
export const expectDocSample = (file: string, n: number, got: Json): void => {
  const shown = docSample(file, n);
  const expected = shortened(shown, got);
  if (!recording) {
    // A failure here: the page shows other values than the run gives. Re-run with RECORD=1 and review the diff.
    expect([file, n, shown]).toEqual([file, n, JSON.parse(JSON.stringify(expected))]);
    return;
  }
  const text = readFileSync(file, 'utf8');
  const block = blocksOf(text)[n - 1]!;
  const start = block.index!;
  const next = `${text.slice(0, start)}\`\`\`json\n${written(expected)}\n\`\`\`${text.slice(start + block[0].length)}`;
  writeFileSync(file, next);
  // Prettier in its own process: jest's module system cannot load its plugins.
  execFileSync(require.resolve('prettier/bin/prettier.cjs'), ['--log-level', 'warn', '--write', file], {
    stdio: 'inherit',
  });
};
