import { errors, type ZObject } from 'zapier-platform-core';
import { anyOf, declareInputs, input, later, fieldOf } from '../lib/inputs';

/*
 * The one declaration of an operation's inputs: the fields Zapier shows, the checks that run before any request, and
 * the request the checked values make. The operations' own suites show each operation's inputs at work; these show
 * the declaration itself, on a small operation of its own.
 */

const z = { errors } as unknown as ZObject;
const en = { authData: { language: 'en' } };
const ar = { authData: { language: 'ar' } };

const booking = declareInputs(
  {
    branch_id: input.positiveInt({ label: 'Branch', required: true, dynamic: 'branches.id.name' }),
    patient_name: input.maxChars(10)({ label: 'Patient Name', to: 'customer.name' }),
    patient_phone: input.phone({ label: 'Patient Phone', to: 'customer.phone' }),
    price_sar: input.sar({ label: 'Price (SAR)', to: 'price_halalas' }),
    prepaid: input.bool({ label: 'Prepaid' }),
    kind: input.choice({ walk_in: 'Walk-in', booked: 'Booked' }, { label: 'Kind' }),
    from: input.date({ label: 'From' }),
    to: input.date({ label: 'To' }),
    lines: input.lines(
      { label: 'Order Lines', required: true },
      {
        sku: input.segmentId({ label: 'SKU' }),
        name: input.text({ label: 'Name' }),
        qty: input.quantity({ label: 'Quantity', required: true }),
      },
      [anyOf(['sku', 'name'], { en: 'give a SKU or a name', ar: 'أدخل رمز الصنف أو الاسم' })],
    ),
  },
  [later('from', 'to')],
);

const valid = { branch_id: '2', lines: [{ sku: 'COF-TR-S', qty: '2' }] };

/** The message an invalid input is refused with (the test fails if it is accepted). */
const refusal = (inputData: Record<string, unknown>, bundle: object = en): string => {
  try {
    booking.parse(z, { ...bundle, inputData } as never);
  } catch (error) {
    expect(error).toBeInstanceOf(errors.Error);
    return JSON.parse((error as Error).message).message as string;
  }
  throw new Error(`accepted: ${JSON.stringify(inputData)}`);
};

describe('declareInputs: the fields Zapier shows', () => {
  it('lists every input in the order declared, with its type, and never the request name', () => {
    expect(booking.fields.map((f) => [f.key, f.type, f.required])).toEqual([
      ['branch_id', 'string', true],
      ['patient_name', 'string', false],
      ['patient_phone', 'string', false],
      ['price_sar', 'string', false],
      ['prepaid', 'boolean', false],
      ['kind', 'string', false],
      ['from', 'string', false],
      ['to', 'string', false],
      ['lines', undefined, true],
    ]);
    expect(booking.fields.some((f) => 'to' in f)).toBe(false);
    expect(booking.fields[0]).toMatchObject({ label: 'Branch', dynamic: 'branches.id.name' });
  });

  it('shows a choice as its choices and line items as their children', () => {
    expect(booking.fields.find((f) => f.key === 'kind')!.choices).toEqual({
      walk_in: 'Walk-in',
      booked: 'Booked',
    });
    expect(booking.fields.find((f) => f.key === 'lines')!.children).toEqual([
      { key: 'sku', label: 'SKU', type: 'string', required: false },
      { key: 'name', label: 'Name', type: 'string', required: false },
      { key: 'qty', label: 'Quantity', type: 'number', required: true },
    ]);
  });
});

describe('declareInputs: the checks before any request', () => {
  it('converts what a Zap builder typed into what the interface takes', () => {
    const parsed = booking.parse(z, {
      ...en,
      inputData: {
        branch_id: ' 2 ',
        patient_name: '  Reem  ',
        patient_phone: '0551234987',
        price_sar: '12.5',
        prepaid: 'Yes',
        kind: 'booked',
        from: '2026-11-24',
        to: '2026-11-25',
        lines: [{ sku: 'COF-TR-S', qty: '1.5' }],
      },
    } as never);
    expect(parsed).toEqual({
      branch_id: 2,
      patient_name: 'Reem',
      patient_phone: '+966551234987',
      price_sar: 1250,
      prepaid: true,
      kind: 'booked',
      from: '2026-11-24',
      to: '2026-11-25',
      lines: [{ sku: 'COF-TR-S', name: undefined, qty: 1.5 }],
    });
  });

  it('counts blank optional text as not given', () => {
    const parsed = booking.parse(z, {
      ...en,
      inputData: { ...valid, patient_name: '   ', kind: '' },
    } as never);
    expect(parsed.patient_name).toBeUndefined();
    expect(parsed.kind).toBeUndefined();
  });

  it('names every bad field by its label in one error', () => {
    expect(
      refusal({
        branch_id: 'Olaya',
        price_sar: '12.345',
        prepaid: 'maybe',
        patient_name: 'a'.repeat(11),
        lines: [],
      }),
    ).toBe(
      'Please fix: Branch: is not an id: choose from the list or map an id from an earlier step; ' +
        'Patient Name: must be at most 10 characters; ' +
        'Price (SAR): "12.345" has more than two decimals; SAR amounts have at most two (halalas); ' +
        'Prepaid: must be yes or no; Order Lines: add at least one line.',
    );
  });

  it('says a required input is required, whether missing or blank', () => {
    expect(refusal({ lines: valid.lines })).toBe('Please fix: Branch: is required.');
    expect(refusal({ branch_id: ' ', lines: valid.lines })).toBe('Please fix: Branch: is required.');
  });

  it('names a line item by its row and its child label', () => {
    expect(refusal({ branch_id: '2', lines: [valid.lines[0], { sku: '..', qty: '0' }] })).toMatch(
      /^Please fix: Order Lines #2, SKU: .+; Order Lines #2, Quantity: must be more than 0\.$/,
    );
  });

  it('refuses what core would refuse to send, naming the field', () => {
    expect(refusal({ ...valid, patient_name: '{{bundle.x}}' })).toMatch(/^Please fix: Patient Name: /);
  });

  it('holds a line to its rule across children, naming every input that would fix it', () => {
    expect(refusal({ branch_id: '2', lines: [{ qty: '1' }] })).toBe(
      'Please fix: Order Lines #1, SKU: give a SKU or a name.',
    );
    expect(() =>
      booking.parse(z, {
        ...en,
        inputData: { branch_id: '2', lines: [{ name: 'Gift wrap', qty: '1' }] },
      } as never),
    ).not.toThrow();
  });

  it('holds one input later than another when both are given, naming the other by its label', () => {
    expect(refusal({ ...valid, from: '2026-11-25', to: '2026-11-24' })).toBe(
      'Please fix: To: must be later than From.',
    );
    expect(refusal({ ...valid, from: '2026-11-25', to: '2026-11-25' })).toBe(
      'Please fix: To: must be later than From.',
    );
    expect(() =>
      booking.parse(z, { ...en, inputData: { ...valid, to: '2026-11-24' } } as never),
    ).not.toThrow();
  });

  it('compares a plain date as the day it names in the clinic’s time (Riyadh), not as UTC midnight', () => {
    const range = declareInputs(
      {
        from: input.dateOrDatetime({ label: 'Starts From' }),
        to: input.dateOrDatetime({ label: 'Starts Before' }),
      },
      [later('from', 'to')],
    );
    const parse = (from: string, to: string) => () =>
      range.parse(z, { ...en, inputData: { from, to } } as never);
    // The 24th from its first hour in Riyadh up to 02:00 that night: a real range (00:00–02:00 on the 24th).
    expect(parse('2026-11-24', '2026-11-24T02:00:00+03:00')).not.toThrow();
    // 01:00 on the 24th up to the start of the 24th: inverted.
    expect(parse('2026-11-24T01:00:00+03:00', '2026-11-24')).toThrow(
      'Please fix: Starts Before: must be later than Starts From.',
    );
  });

  it('writes the refusal in Arabic too on an Arabic connection', () => {
    const message = refusal({ lines: valid.lines }, ar);
    expect(message).toContain('Please fix: Branch: is required.');
    expect(message).toContain('يرجى تصحيح ما يلي: Branch: مطلوب.');
  });

  it('names the field a money or phone conversion refused, in the conversion’s own words', () => {
    expect(refusal({ ...valid, patient_phone: '12' })).toMatch(/^Please fix: Patient Phone: /);
    expect(refusal({ ...valid, price_sar: '-1' })).toMatch(/^Please fix: Price \(SAR\): /);
  });
});

describe('declareInputs: the request the values make', () => {
  it('sends each value under its request name, members of one object together, line items row by row', () => {
    const parsed = booking.parse(z, {
      ...en,
      inputData: {
        ...valid,
        patient_name: 'Reem',
        patient_phone: '0551234987',
        price_sar: '9',
        lines: [{ name: 'Gift wrap', qty: '1' }],
      },
    } as never);
    expect(booking.request(parsed)).toEqual({
      branch_id: 2,
      customer: { name: 'Reem', phone: '+966551234987' },
      price_halalas: 900,
      prepaid: undefined,
      kind: undefined,
      from: undefined,
      to: undefined,
      lines: [{ sku: undefined, name: 'Gift wrap', qty: 1 }],
    });
  });

  it('leaves out an object none of whose members was given', () => {
    const parsed = booking.parse(z, { ...en, inputData: valid } as never);
    expect(booking.request(parsed)).not.toHaveProperty('customer');
  });
});

describe('fieldOf: the field of one declared input whose value its own code reads (trigger filters)', () => {
  it('is the field declareInputs shows for it, type and list included', () => {
    const choice = input.choice(
      { sms: 'SMS', email: 'Email' },
      { label: 'Channel', helpText: 'e.g. SMS', list: true },
    );
    expect(fieldOf('channel', choice)).toEqual(declareInputs({ channel: choice }).fields[0]);
    expect(fieldOf('channel', choice)).toMatchObject({
      key: 'channel',
      type: 'string',
      list: true,
      required: false,
    });
    expect(
      fieldOf('n', input.positiveInt({ label: 'N', helpText: 'e.g. 2', type: 'integer' })),
    ).toMatchObject({
      key: 'n',
      type: 'integer',
    });
  });
});
