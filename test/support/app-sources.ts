import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** The repository's root. */
export const ROOT = path.resolve(__dirname, '..', '..');

const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sources(file);
    return file.endsWith('.ts') ? [file] : [];
  });

/** The app's own TypeScript files (absolute paths): lib/, creates/, searches/, triggers/, authentication and index. */
export const appSources = (): string[] => [
  ...['lib', 'creates', 'searches', 'triggers'].flatMap((dir) => sources(path.join(ROOT, dir))),
  path.join(ROOT, 'authentication.ts'),
  path.join(ROOT, 'index.ts'),
];
