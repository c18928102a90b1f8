import pkg from '../../package.json';
import { halalasToSar } from '../../lib/money';
import * as cashier from '../../lib/resources/cashier';
import * as clinic from '../../lib/resources/clinic';
import { APP_VERSION } from '../../lib/version';
import { App } from '../helpers';
import { decoratedKeys, resourceSchemaOf, resourcesOf, type AnyResource } from '../support/schemas';

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

describe('stock level (CONTRACT §2)', () => {
  it('gets the id <branch_id>:<variant_id>', () => {
    const level = cashier.stockLevel.present({
      branch_id: 3,
      variant_id: 41,
      sku: 'DATE-CAKE',
      name_ar: 'كعكة التمر',
      qty: 2,
      reorder_point: '5',
      suggested_qty: '20',
    });

    expect(level.id).toBe('3:41');
    expect(decoratedKeys(cashier.stockLevel as unknown as AnyResource)).toEqual(['id']);
    expect(cashier.stockLevel.outputFields.map((o) => o.key)).toContain('id');
    // Quantities are decimal strings; a number is read as one.
    expect(level.qty).toBe('2');
  });

  it('two variants of one branch get different ids', () => {
    const a = cashier.stockLevel.present({ branch_id: 1, variant_id: 118 });
    const b = cashier.stockLevel.present({ branch_id: 11, variant_id: 18 });
    expect(a.id).not.toBe(b.id);
  });
});

describe('version', () => {
  it('APP_VERSION equals package.json’s version, and the app declares it', () => {
    expect(APP_VERSION).toBe(pkg.version);
    expect(App.version).toBe(pkg.version);
  });
});
