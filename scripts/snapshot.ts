import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ContractSnapshot } from './contract';

/** The committed contract snapshot (C001–C003): written only by `npm run contract:update`. */
export const SNAPSHOT_PATH = path.resolve(__dirname, '..', 'test', 'contract', 'definition-snapshot.json');

export const readSnapshot = (): ContractSnapshot | undefined =>
  existsSync(SNAPSHOT_PATH)
    ? (JSON.parse(readFileSync(SNAPSHOT_PATH, 'utf8')) as ContractSnapshot)
    : undefined;
