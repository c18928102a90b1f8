import { LABELS, labelOf } from '../lib/labels';
import { App } from './helpers';

describe('labelOf: a request field as a Zap builder knows it', () => {
  it('gives a known field its label in both languages', () => {
    expect(labelOf('starts_at')).toEqual({ en: 'Start Time', ar: 'وقت البدء' });
  });

  it('names a field of a line by the list, its position from 1 and the field, whichever way it is written', () => {
    const third = { en: 'Order Lines #3 Unit Price', ar: 'بنود الطلب #3 سعر الوحدة' };
    expect(labelOf('lines.2.unit_price_halalas')).toEqual(third);
    expect(labelOf('lines[2].unit_price_halalas')).toEqual(third);
    expect(labelOf('customer.phone')).toEqual({ en: 'Customer Phone', ar: 'العميل الجوال' });
  });

  it('falls back to the key in Title Case, and never to an inherited member', () => {
    expect(labelOf('loyalty_tier')).toEqual({ en: 'Loyalty Tier', ar: 'loyalty_tier' });
    expect(labelOf('constructor')).toEqual({ en: 'Constructor', ar: 'constructor' });
    expect(labelOf('toString')).toEqual({ en: 'ToString', ar: 'toString' });
  });
});

type Field = { key: string; label?: string; children?: Field[] };

describe('lib/labels.ts, against the inputs', () => {
  const declared = new Map<string, string[]>();
  for (const step of [...Object.values(App.creates ?? {}), ...Object.values(App.searches ?? {})])
    for (const field of (step.operation.inputFields ?? []) as Field[])
      for (const f of [field, ...(field.children ?? [])])
        declared.set(f.key, [...(declared.get(f.key) ?? []), f.label ?? f.key]);

  it.each(Object.keys(LABELS).filter((key) => declared.has(key)))(
    '%s reads as an input that sends it calls it',
    (key) => {
      expect(declared.get(key)).toContain(LABELS[key]!.en);
    },
  );
});
