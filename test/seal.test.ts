import { errors } from 'zapier-platform-core';
import { AppMessageError } from '../lib/i18n';
import { isSealed, seal, sealApp, sealError } from '../lib/seal';
import { App } from './helpers';
import { functionsOf } from './support/definition-functions';

/* Hostile errors through the whole app: test/hostile.test.ts. */

describe('sealError', () => {
  it('keeps the app’s own messages and core’s own-message errors, with enrichment off', () => {
    const own = new AppMessageError('Booking Reference: too long');
    expect(sealError(own)).toBe(own);
    const halted = new errors.HaltedError('not yet');
    expect(sealError(halted)).toBe(halted);
    expect((halted as { doNotContextify?: boolean }).doNotContextify).toBe(true);
  });

  it('turns anything else into a message naming only the kind of problem, in the connection’s language', () => {
    const leak = new SyntaxError('Unexpected token in {"secret":"whsec_1"}');
    const sealed = sealError(leak, { authData: { language: 'ar' } });
    expect(sealed).toBeInstanceOf(errors.Error);
    expect(sealed.message).toContain('(SyntaxError)');
    expect(sealed.message).toContain('واجه التطبيق');
    expect(sealed.message).not.toContain('whsec_1');
    expect(sealError('a string thrown').message).toContain('(string)');
    const oddName = Object.assign(new Error('x'), { name: 'secret: whsec_1' });
    expect(sealError(oddName).message).toContain('(Error)');
  });
});

describe('seal and sealApp', () => {
  it('seal an app’s functions once, each throwing only sealed errors', async () => {
    const perform = async () => {
      throw new TypeError('cannot read token_abc');
    };
    const app = sealApp({
      version: '1.0.0',
      authentication: { test: perform },
      triggers: { t: { key: 't', operation: { perform, inputFields: [{ key: 'a' }, perform] } } },
      hydrators: { h: perform },
    });
    const fns = [
      app.authentication.test,
      app.triggers.t.operation.perform,
      app.triggers.t.operation.inputFields[1],
      app.hydrators.h,
    ];
    for (const fn of fns) {
      expect(isSealed(fn)).toBe(true);
      await expect((fn as () => Promise<unknown>)()).rejects.toThrow(
        /"The app met an unexpected problem \(TypeError\)/,
      );
    }
    expect(app.triggers.t.operation.inputFields[0]).toEqual({ key: 'a' });
    expect(seal(app.hydrators.h)).toBe(app.hydrators.h);
    expect(isSealed(perform)).toBe(false);
  });

  it('seal a dropdown’s choices.perform, a line-item child’s too, and keep the field as it was', async () => {
    const perform = async () => {
      throw new TypeError('cannot read token_abc');
    };
    const field = { key: 'branch_id', choices: { perform }, dependsOn: ['x'] };
    const app = sealApp({
      creates: {
        c: {
          key: 'c',
          operation: {
            perform,
            inputFields: [field, { key: 'lines', children: [{ key: 'variant_id', choices: { perform } }] }],
          },
        },
      },
    });
    const [top, lines] = app.creates.c.operation.inputFields as [
      typeof field,
      { children: Array<typeof field> },
    ];
    for (const fn of [top.choices.perform, lines.children[0]!.choices.perform]) {
      expect(isSealed(fn)).toBe(true);
      await expect(fn()).rejects.toThrow(/"The app met an unexpected problem \(TypeError\)/);
    }
    expect(top).toMatchObject({ key: 'branch_id', dependsOn: ['x'] });
    expect(isSealed(field.choices.perform)).toBe(false);
  });

  it('the app as published: every function anywhere in the definition is sealed, dropdowns’ choices.perform too', () => {
    const fns = functionsOf(App);
    const unsealed = fns.filter(([, fn]) => !isSealed(fn)).map(([path]) => path);
    expect(unsealed).toEqual([]);
    const choices = fns.filter(([path]) => path.endsWith('.choices.perform'));
    expect(choices.length).toBeGreaterThanOrEqual(54);
    expect(fns.length).toBeGreaterThan(choices.length + 60);
  });

  it('pass a sealed function’s answer through unchanged', async () => {
    expect(
      await seal(async (_z: never, bundle: never) => ({ got: bundle }))({} as never, 1 as never),
    ).toEqual({
      got: 1,
    });
  });
});
