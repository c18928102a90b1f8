import pkg from '../../package.json';
import { halalasToSar } from '../../lib/money';
import * as cashier from '../../lib/resources/cashier';
import * as clinic from '../../lib/resources/clinic';
import { APP_VERSION } from '../../lib/version';
import { App } from '../helpers';
import { resourceSchemaOf, resourcesOf } from '../support/schemas';

/* Resources and their samples (clinic spec §2, cashier spec §2, CONTRACT §2, §5). */

const CLINIC = resourcesOf(clinic);
const CASHIER = resourcesOf(cashier);
const ALL = [...CLINIC, ...CASHIER];

/** `path: x_halalas=… but x_sar=…` for every amount whose SAR sibling is missing or different. */
const moneyMismatches = (value: unknown, path = ''): string[] => {
  if (Array.isArray(value)) return value.flatMap((v, i) => moneyMismatches(v, `${path}[${i}]`));
  if (!value || typeof value !== 'object') return [];
  const record = value as Record<string, unknown>;
  return Object.entries(record).flatMap(([key, v]) => {
    const nested = moneyMismatches(v, `${path}${path ? '.' : ''}${key}`);
    if (!key.endsWith('_halalas') || typeof v !== 'number') return nested;
    const sarKey = key.replace(/_halalas$/, '_sar');
    const sar = record[sarKey];
    return sar === halalasToSar(v)
      ? nested
      : [...nested, `${path}${path ? '.' : ''}${key}=${v} but ${sarKey}=${String(sar)}`];
  });
};

describe('resources', () => {
  it('finds the resources of both interfaces', () => {
    expect(CLINIC.map(([name]) => name)).toEqual(
      expect.arrayContaining(['patient', 'appointment', 'invoice', 'claim', 'patientErasure']),
    );
    expect(CASHIER.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        'receipt',
        'creditNote',
        'session',
        'stockLevel',
        'orderStatusChange',
        'customer',
      ]),
    );
  });

  describe.each(ALL)('%s', (_name, resource) => {
    it('its sample parses with its schema', () => {
      const parsed = resourceSchemaOf(resource).safeParse(resource.sample);
      expect(parsed.error?.issues ?? []).toEqual([]);
      expect(parsed.success).toBe(true);
    });

    // A sample built by spreading another one keeps that one's `_sar` members: they must not win over the
    // amounts of this sample (the credit note's is built so).
    it('every amount in its sample, nested ones too, has the matching SAR sibling', () => {
      expect(moneyMismatches(resource.sample)).toEqual([]);
    });
  });
});

describe('version', () => {
  it('APP_VERSION equals package.json’s version, and the app declares it', () => {
    expect(APP_VERSION).toBe(pkg.version);
    expect(App.version).toBe(pkg.version);
  });
});
