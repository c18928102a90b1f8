import {
  FIELDS_SHOWN_MAX,
  invalidFields,
  parseEnvelope,
  RETRY_AFTER,
  retryAfterSeconds,
  SERVER_MESSAGE_MAX,
} from '../lib/error-body';

/*
 * Reading an error answer's body. The error mapper's messages from it, through real requests: test/errors.test.ts;
 * regular expressions that could backtrack and field keys at their limits: test/edges.test.ts.
 */

const answer = (content: string) => ({ content }) as never;

describe('parseEnvelope', () => {
  it('reads the envelope’s members of the types the specs give, and nothing else', () => {
    const body = { error: 'slot_taken', message: 'Taken', details: { a: 1 }, stack: 'x' };
    expect(parseEnvelope(answer(JSON.stringify(body)))).toEqual({
      error: 'slot_taken',
      message: 'Taken',
      details: { a: 1 },
    });
    expect(parseEnvelope(answer('{"error":"Not A Code","message":7,"details":[1]}'))).toEqual({
      error: undefined,
      message: undefined,
      details: undefined,
    });
    for (const content of ['', '<html>502</html>', '[1]', 'null'])
      expect(parseEnvelope(answer(content))).toEqual({});
  });

  it('puts the message on one line, at most SERVER_MESSAGE_MAX characters', () => {
    expect(parseEnvelope(answer(JSON.stringify({ message: ' a\n\u0000b\u2028  c ' }))).message).toBe('a b c');
    const long = parseEnvelope(answer(JSON.stringify({ message: 'x'.repeat(100_000) }))).message!;
    expect(long).toHaveLength(SERVER_MESSAGE_MAX);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('retryAfterSeconds', () => {
  const now = Date.parse('2026-11-24T07:00:00Z');
  it.each([
    ['30', 30],
    ['0', RETRY_AFTER.min],
    ['100000', RETRY_AFTER.max],
    ['Tue, 24 Nov 2026 07:02:00 GMT', 120],
    ['-5', RETRY_AFTER.fallback],
    ['1.5', RETRY_AFTER.fallback],
    ['soon', RETRY_AFTER.fallback],
    ['', RETRY_AFTER.fallback],
    [null, RETRY_AFTER.fallback],
  ])('%j waits %d s', (value, seconds) => expect(retryAfterSeconds(value, now)).toBe(seconds));
});

describe('invalidFields', () => {
  it('reads each shape the details may take', () => {
    expect(
      invalidFields({ errors: [{ field: 'starts_at', code: 'in_past' }, { field: 'lines[0].qty' }] }),
    ).toEqual([
      { field: 'starts_at', problem: 'in_past' },
      { field: 'lines[0].qty', problem: undefined },
    ]);
    expect(invalidFields({ fields: ['branch_id'] })).toEqual([{ field: 'branch_id', problem: undefined }]);
    expect(invalidFields({ starts_at: { code: 'in_past' }, note: 'Too long!' })).toEqual([
      { field: 'starts_at', problem: 'in_past' },
      { field: 'note', problem: undefined },
    ]);
  });

  it('keeps field keys only, once each, at most FIELDS_SHOWN_MAX', () => {
    expect(
      invalidFields({ errors: [{ field: 'a b' }, { field: 'x' }, { field: 'x' }, { field: 7 }] }),
    ).toEqual([{ field: 'x', problem: undefined }]);
    const many = Array.from({ length: 100 }, (_, i) => ({ field: `f${i}` }));
    expect(invalidFields({ errors: many })).toHaveLength(FIELDS_SHOWN_MAX);
    expect(invalidFields(null)).toEqual([]);
  });
});
