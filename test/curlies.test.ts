import fc from 'fast-check';
import { holdsCoreTemplate } from '../lib/curlies';

/** Core's own test (`throwForCurlies`), which the app's reads once from left to right. */
const CORE = /{{\s*(bundle|process)\.[^}]*}}/;

describe('holdsCoreTemplate', () => {
  it.each([
    ['{{bundle.inputData.x}}', true],
    ['Dear {{ process.env.SECRET }}', true],
    ['{{bundle.}}', true],
    ['{{bundle.a} }}', false],
    ['{{ bundlex.a }}', false],
    ['{{name}} and {{bundle.a', false],
    ['{bundle.a}}', false],
    ['{{ {{bundle.a}}', true],
    ['', false],
  ])('%j: %s, as core reads it', (text, held) => {
    expect(holdsCoreTemplate(text)).toBe(held);
    expect(CORE.test(text)).toBe(held);
  });

  it('agrees with core’s expression on any text of braces, spaces and its prefixes', () => {
    const piece = fc.constantFrom('{{', '{', '}}', '}', ' ', 'bundle.', 'process.', 'bundle', 'x', '.');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (parts) => {
        const text = parts.join('');
        expect(holdsCoreTemplate(text)).toBe(CORE.test(text));
      }),
      { numRuns: 2000 },
    );
  });
});
