import { readFileSync } from 'node:fs';
import path from 'node:path';
import { errors as zErrors } from 'zapier-platform-core';
import { testAuth } from '../authentication';
import { mapErrors, toZapierError } from '../lib/errors';
import { EVENTS } from '../lib/hooks/events';
import { clientFor } from '../lib/http';
import { BETWEEN, say } from '../lib/i18n';
import { requireBaseUrl, requireToken } from '../lib/partner-apis';
import { sealError } from '../lib/seal';
import { App, appTester, AUTH, clinicApi, clinicPath, messageOf, START_AHEAD, useNock } from './helpers';
import { appSources, ROOT } from './support/app-sources';

/*
 * Zapier's publishing rules want labels, help text and error messages in English. A connection in Arabic gets the
 * app's messages in English first and in Arabic after them (CONTRACT §8): `say` (lib/i18n.ts) is the one place a
 * message becomes text, and every message of the app goes through it.
 */

const ARABIC = /[\u0600-\u06FF]{3,}/;

describe('say', () => {
  const text = { en: 'The slot is taken.', ar: 'الموعد محجوز.' };

  it('gives English to an English connection', () => {
    expect(say('en', text)).toBe('The slot is taken.');
  });

  it('gives English then its Arabic to an Arabic connection', () => {
    expect(say('ar', text)).toBe(`The slot is taken.${BETWEEN}الموعد محجوز.`);
  });

  it('does not repeat a message that reads the same in both', () => {
    expect(say('ar', { en: 'HTTP 502', ar: 'HTTP 502' })).toBe('HTTP 502');
  });
});

useNock();

type Fn = (z: unknown, bundle: unknown) => unknown;
const createPerform = (key: string) =>
  (App.creates as Record<string, { operation: { perform: unknown } }>)[key]!.operation.perform as Fn;
const triggerOp = (event: string, fn: 'perform' | 'performSubscribe' | 'performUnsubscribe') => {
  const key = EVENTS.find((e) => e.event === event)!.key;
  return (App.triggers as unknown as Record<string, { operation: Record<string, unknown> }>)[key]!.operation[
    fn
  ] as Fn;
};

/** A booking whose only fault is the one a row gives it. */
const BOOKING = {
  patient_phone: '0501234567',
  patient_name: 'Sara',
  branch_id: '1',
  appointment_type_id: '4',
  starts_at: START_AHEAD,
};
const book = (language: 'en' | 'ar', inputData: Record<string, unknown>) =>
  caught(() =>
    appTester(
      createPerform('book_appointment') as never,
      { authData: { ...AUTH, language }, inputData: { ...BOOKING, ...inputData } } as never,
    ),
  );

const caught = async (run: () => unknown): Promise<string> => {
  try {
    await run();
  } catch (error) {
    return messageOf(error);
  }
  throw new Error('expected a failure');
};

const answer = (status: number, body: unknown) =>
  ({
    status,
    content: JSON.stringify(body),
    headers: { get: () => null },
  }) as never;

/** Ways the app tells a Zap builder something, each run for a connection in the given language. */
const MESSAGES: Record<string, (language: 'en' | 'ar') => Promise<string>> = {
  'the connection test without a token': (language) =>
    caught(() => appTester(testAuth, { authData: { language } })),
  'a missing token': (language) =>
    caught(() => requireToken({ authData: { clinic_api_token: 'x', language } } as never, 'cashier')),
  'a base address that is not https': (language) =>
    caught(() =>
      requireBaseUrl(
        { authData: { ...AUTH, language, clinic_base_url: 'ftp://x.test/partner/v1' } } as never,
        'clinic',
      ),
    ),
  'invalid inputs': (language) =>
    caught(() =>
      appTester(
        createPerform('create_order') as never,
        {
          authData: { ...AUTH, language },
          inputData: { external_id: 'SHOP-1', branch_id: 'x', lines: [{ sku: 'A', qty: '0' }] },
        } as never,
      ),
    ),
  'an error answer (the app’s words, no server message)': (language) =>
    caught(() => {
      throw toZapierError(
        { errors: zErrors } as never,
        answer(404, { error: 'not_found' }),
        'clinic',
        language,
      );
    }),
  'an unexpected failure': (language) =>
    caught(() => {
      throw sealError(new TypeError('x is undefined'), { authData: { language } });
    }),
  'a phone that is not one (a conversion’s own words)': (language) =>
    book(language, { patient_phone: '+966 12' }),
  'an amount with three decimals (a conversion’s own words)': (language) =>
    caught(() =>
      appTester(
        createPerform('create_order') as never,
        {
          authData: { ...AUTH, language },
          inputData: {
            external_id: 'SHOP-1',
            branch_id: '1',
            lines: [{ sku: 'A', qty: '1', unit_price_sar: '1.005' }],
          },
        } as never,
      ),
    ),
  'a start time in the past (the time in words)': (language) =>
    book(language, { starts_at: '2020-01-05T10:30:00+03:00' }),
  'a redirect from the interface': (language) =>
    caught(() =>
      mapErrors(
        { status: 302, request: { middlewareData: { api: 'clinic' } } } as never,
        { errors: zErrors } as never,
        { authData: { language } } as never,
      ),
    ),
  'an answer that is not JSON': (language) => {
    // hand-built: the sandbox always answers JSON.
    clinicApi(language).get(clinicPath('/meta')).reply(200, 'not json');
    return caught(() =>
      appTester((z, bundle) => clientFor(z, bundle, 'clinic').get('/meta'), {
        authData: { ...AUTH, language },
      }),
    );
  },
  'an instant trigger run outside Zapier': (language) =>
    caught(() =>
      appTester(triggerOp('appointment.created', 'perform') as never, { authData: { ...AUTH, language } }),
    ),
  'a delivery refused': (language) =>
    caught(() =>
      appTester(
        triggerOp('appointment.created', 'perform') as never,
        {
          authData: { ...AUTH, language },
          rawRequest: { headers: {}, content: '{}' },
        } as never,
      ),
    ),
  'a subscription without a valid id': (language) =>
    caught(() =>
      appTester(
        triggerOp('appointment.created', 'performUnsubscribe') as never,
        {
          authData: { ...AUTH, language },
          subscribeData: { id: 'not-a-number' },
        } as never,
      ),
    ),
  'a Consent Channel that names no channel': (language) =>
    caught(() =>
      appTester(
        triggerOp('customer.created', 'performSubscribe') as never,
        {
          authData: { ...AUTH, language },
          targetUrl: 'https://hooks.zapier.com/hooks/standard/1/abc',
          inputData: { consent_channel: 'sms,email' },
        } as never,
      ),
    ),
};

describe('every message rendered in Arabic starts with its English', () => {
  it.each(Object.entries(MESSAGES))('%s', async (_what, message) => {
    const en = await message('en');
    const ar = await message('ar');
    expect(en).not.toMatch(ARABIC);
    expect(ar.slice(0, en.length)).toBe(en);
    expect(ar.slice(en.length, en.length + BETWEEN.length)).toBe(BETWEEN);
    expect(ar.slice(en.length + BETWEEN.length)).toMatch(ARABIC);
  });

  it('an error answer with the server’s message: the explanation in English, then Arabic, then the server quoted once', async () => {
    const server = 'لا يوجد مريض بهذا المعرّف.';
    const mapped = (language: 'en' | 'ar') =>
      caught(() => {
        throw toZapierError(
          { errors: zErrors } as never,
          answer(404, { error: 'not_found', message: server }),
          'clinic',
          language,
        );
      });
    const own = await mapped('en');
    const quoted = ` The clinic interface said: "${server}"`;
    expect(own.endsWith(quoted)).toBe(true);
    const english = own.slice(0, -quoted.length);
    expect(english).not.toMatch(ARABIC);
    const ar = await mapped('ar');
    expect(ar.startsWith(`${english}${BETWEEN}`)).toBe(true);
    expect(ar.slice(english.length + BETWEEN.length)).toMatch(/^لا يوجد في حساب العيادة عنصر بهذا المعرّف/);
    expect(ar.endsWith(` The clinic interface said${BETWEEN}رد واجهة العيادة: "${server}"`)).toBe(true);
    expect(ar.split(server)).toHaveLength(2);
  });
});

describe('messages are rendered in one place', () => {
  const files = appSources().filter((file) => path.relative(ROOT, file) !== path.join('lib', 'i18n.ts'));

  it('no module picks a language’s text itself (it calls say)', () => {
    const picking = files.filter((file) => /\[lang\]|===\s*'ar'|'ar'\s*===/.test(readFileSync(file, 'utf8')));
    expect(picking.map((file) => path.relative(ROOT, file))).toEqual([]);
  });
});

describe('the definition’s own words are English first', () => {
  /** Words a Zap builder reads in the editor (labels, help, descriptions, choices), by where they are; samples are data. */
  const uiText = (node: unknown, at: string, out: Array<[string, string]> = []): Array<[string, string]> => {
    if (Array.isArray(node)) node.forEach((v, i) => uiText(v, `${at}[${i}]`, out));
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === 'sample') continue;
        const where = `${at}.${key}`;
        if (typeof value === 'string' && ['label', 'helpText', 'description', 'noun'].includes(key)) {
          out.push([where, value]);
        } else if (key === 'choices' && value && typeof value === 'object' && !Array.isArray(value)) {
          for (const [k, v] of Object.entries(value))
            if (typeof v === 'string') out.push([`${where}.${k}`, v]);
        } else uiText(value, where, out);
      }
    }
    return out;
  };
  const texts = uiText(App, 'App');

  it('reads the definition’s labels and help', () => {
    expect(texts.length).toBeGreaterThan(100);
    expect(texts.map(([where]) => where)).toContain('App.authentication.fields[2].choices.ar');
  });

  it('no label, help text, description or choice begins in Arabic', () => {
    const arabicFirst = texts.filter(
      ([, text]) => ARABIC.test(text) && !/^[^\u0600-\u06FF]*[A-Za-z]/.test(text),
    );
    expect(arabicFirst).toEqual([]);
  });
});
