import {
  bool,
  maxChars,
  optional,
  phone,
  positiveInt,
  quantity,
  sar,
  segmentId,
  text,
  ulid,
} from '../lib/input-rules';

/*
 * The rules lib/inputs.ts declares inputs with, on their own: what each takes, what it turns it into, and the message
 * key it refuses with (lib/i18n.ts words them). test/inputs.test.ts runs them through a declared operation.
 */

const issueOf = (
  schema: { safeParse: (v: unknown) => { success: boolean; error?: { issues: Array<{ message: string }> } } },
  v: unknown,
) => schema.safeParse(v).error?.issues[0]?.message;

describe('input rules', () => {
  it('text is trimmed, blank is required, and what core would refuse to send is refused', () => {
    expect(text().parse('  Reem  ')).toBe('Reem');
    expect(issueOf(text(), '   ')).toBe('required');
    expect(issueOf(text(), 'Hi {{bundle.inputData.name}}')).toBe('curlies');
    expect(text().parse('Hi {{first_name}}')).toBe('Hi {{first_name}}');
    expect(issueOf(maxChars(5), 'abcdef')).toBe('max_chars');
  });

  it('optional takes blank and null as not given', () => {
    expect(optional(text()).parse('')).toBeUndefined();
    expect(optional(text()).parse(null)).toBeUndefined();
    expect(optional(text()).parse(' x ')).toBe('x');
  });

  it('a ULID is upper-cased; a wrong one says to choose from the list where there is one', () => {
    expect(ulid({}).parse(' 01jda3f7q9b2c4d6e8g0h1j3k5 ')).toBe('01JDA3F7Q9B2C4D6E8G0H1J3K5');
    expect(issueOf(ulid({}), 'APT-1')).toBe('ulid');
    expect(issueOf(ulid({ choices: {} }), 'APT-1')).toBe('ulid_from_list');
  });

  it('a path segment id never turns into another path', () => {
    expect(segmentId().parse('ORD-2026:0042')).toBe('ORD-2026:0042');
    for (const bad of ['..', '.', 'a/b', 'a?b', '%2e%2e', 'a#b'])
      expect(issueOf(segmentId(), bad)).toBe('segment_id');
  });

  it('a whole number of 1 or more, from text too; a name typed for an id says to choose or map one', () => {
    expect(positiveInt({}).parse(' 12 ')).toBe(12);
    expect(issueOf(positiveInt({}), '1.5')).toBe('whole_number');
    expect(issueOf(positiveInt({ dynamic: 'branch_list.id.name' }), 'Olaya')).toBe('id_from_list');
    expect(issueOf(positiveInt({}), 0)).toBe('one_or_more');
  });

  it('quantities, yes/no, riyals to halalas and Saudi phones to E.164', () => {
    expect(quantity().parse('1.5')).toBe(1.5);
    expect(bool().parse('yes')).toBe(true);
    expect(bool().parse('false')).toBe(false);
    expect(sar().parse('12.50')).toBe(1250);
    expect(sar().safeParse('12.505').success).toBe(false);
    expect(phone().parse('0501234567')).toBe('+966501234567');
    expect(phone().safeParse('12').success).toBe(false);
  });
});
