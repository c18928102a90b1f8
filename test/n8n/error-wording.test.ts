/*
 * The errors the n8n nodes raise speak of workflows: the app's messages take what is the host's (its words, and a
 * claim true in one host only) from the host of the call (lib/host.ts), which the seam gives as n8n's (src/host.ts);
 * both halves of "English — Arabic" read as true in n8n.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { signDelivery } from '../../sandbox/webhooks';
import { ClinicCashier } from '../../n8n-nodes-clinic-cashier/src/nodes/ClinicCashier/ClinicCashier.node';
import { ClinicCashierTrigger } from '../../n8n-nodes-clinic-cashier/src/nodes/ClinicCashierTrigger/ClinicCashierTrigger.node';
import { ClinicCashierStartingSoonTrigger } from '../../n8n-nodes-clinic-cashier/src/nodes/ClinicCashierStartingSoonTrigger/ClinicCashierStartingSoonTrigger.node';
import { testConnection } from '../../n8n-nodes-clinic-cashier/src/connection';
import { EVENTS } from '../../lib/hooks/events';
import { BETWEEN } from '../../lib/i18n';
import { delivered, reply } from '../fixtures';
import { appSources, ROOT } from '../support/app-sources';
import { forgetDeliveries } from '../support/hooks';
import { cashierApi, cashierPath, clinicApi, clinicPath, useNock } from '../helpers';
import { BOOKING_INPUT, credentials, hookContext, pollContext } from './context';

useNock();
beforeEach(forgetDeliveries);

const ZAP = /\bzap(s|’s|'s)?\b|zapier|زاب/i;
const LANGUAGES = ['en', 'ar'] as const;
type Lang = (typeof LANGUAGES)[number];

/** A node method's `this`, its credentials in the given language. */
/** The context with a credential of its own in `language` (another credential: another id, as in n8n). */
const inLanguage = <C extends { getCredentials: unknown; getNode(): { credentials?: object } }>(
  context: C,
  language: Lang,
): C => ({
  ...context,
  getCredentials: async () => ({ ...credentials, language }),
  getNode: () => {
    const node = context.getNode();
    return {
      ...node,
      credentials: { ...node.credentials, clinicCashierApi: { id: `in-${language}`, name: language } },
    };
  },
});

const failure = async (run: () => Promise<unknown>): Promise<Error> => {
  try {
    await run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure');
};

/** The English and (for an Arabic connection) the Arabic half of a message. */
const halves = (message: string) => message.split(BETWEEN);

const book = (language: Lang, startsAt: string) =>
  failure(() =>
    new ClinicCashier().execute.call(
      inLanguage(
        hookContext({ resource: 'appointment', operation: 'book', ...BOOKING_INPUT, starts_at: startsAt })
          .context,
        language,
      ) as never,
    ),
  );

describe('the action node’s start-time checks, before any request', () => {
  it.each(LANGUAGES)('a start time in the past is read in the workflow’s timezone (%s)', async (language) => {
    // In another offset than Riyadh's (the workflow's timezone, were it typed without one): the hint shows.
    const err = await book(language, '2020-01-05T10:30:00-06:00');
    expect(err.message).not.toMatch(ZAP);
    const [en, ar] = halves(err.message);
    expect(en).toMatch(
      /is in the past \(read as .+, Riyadh time\): give a time ahead\. It came with the offset -06:00, not Riyadh's \+03:00\. A time typed without an offset is read in the workflow's timezone: set it to Asia\/Riyadh/,
    );
    if (language === 'ar') expect(ar).toMatch(/يُقرأ بالمنطقة الزمنية لسير العمل: اضبطها على Asia\/Riyadh/);
    else expect(ar).toBeUndefined();
    // The error keeps its class and what it carries; only its words change.
    expect(err).toMatchObject({ name: 'AppError', code: expect.any(String), doNotContextify: true });
    expect(err.stack).not.toMatch(ZAP);
  });

  it.each(LANGUAGES)(
    'a start time within 5 minutes is only too soon, nothing turned into now (%s)',
    async (language) => {
      const err = await book(language, new Date(Date.now() + 60_000).toISOString());
      expect(err.message).not.toMatch(ZAP);
      const [en, ar] = halves(err.message);
      expect(en).toMatch(
        /is within 5 minutes of now \(read as .+, Riyadh time\), too soon to book\. Give a real date and time at least 5 minutes ahead/,
      );
      expect(en).not.toMatch(/current time/);
      if (language === 'ar') expect(ar).toMatch(/وهذا أقرب من أن يُحجز\. أدخل تاريخًا ووقتًا حقيقيين/);
    },
  );
});

describe('New Customer’s consent check through the n8n trigger', () => {
  const def = EVENTS.find((e) => e.key === 'customer_created')!;
  const HOOK_URL = 'https://n8n.clinic.example/webhook/c0n5/webhook';
  const HOOK_PATH = new URL(HOOK_URL).pathname;
  const SECRET = 'whsec_n8n_consent_0123456789abcdef';
  const subscription = { id: 41, secret: SECRET, target_path: HOOK_PATH, event: def.event, api: def.api };
  const customer = () => delivered(def.event).data as Record<string, unknown>;
  let next = 9000;
  /** hand-built rows (chosen paging): more consenting customers changed than the check reads. */
  const others = () => Array.from({ length: 100 }, () => ({ ...customer(), id: (next += 1) }));

  it.each(LANGUAGES)(
    'asks to run the execution again, not to replay from the Zap history (%s)',
    async (language) => {
      const pages = Array.from({ length: 20 }, (_, i) =>
        cashierApi(language)
          .get(cashierPath('/customers'))
          .query({
            consented_only: 'true',
            consent_channel: 'email',
            updated_since: '2026-11-24T06:50:00.000Z',
            page: String(i + 1),
            per_page: '100',
          })
          .reply(200, { data: others(), meta: { total: 5000, page: i + 1, per_page: 100 } }),
      );
      const body = JSON.stringify(delivered(def.event));
      const timestamp = String(Math.floor(Date.now() / 1000));
      const request = {
        headers: {
          'content-type': 'application/json',
          'x-partner-timestamp': timestamp,
          'x-partner-signature': signDelivery(SECRET, timestamp, HOOK_PATH, body),
          'x-partner-event-id': (JSON.parse(body) as { id: string }).id,
        },
        rawBody: Buffer.from(body, 'utf8'),
      };
      const { context } = hookContext(
        { event: def.key, consent_channel: 'email' },
        { staticData: { subscription }, request },
      );
      const err = await failure(() =>
        new ClinicCashierTrigger().webhook.call(inLanguage(context, language) as never),
      );
      expect(pages.every((p) => p.isDone())).toBe(true);
      expect(err.message).not.toMatch(ZAP);
      const [en, ar] = halves(err.message);
      expect(en).toMatch(
        /could not be checked: more than 2000 customers .+\. Run this execution again from the workflow’s Executions list\.$/,
      );
      if (language === 'ar') expect(ar).toMatch(/أعد تشغيل هذا التنفيذ من قائمة التنفيذات في سير العمل\.$/);
    },
  );
});

describe('other messages a node can raise', () => {
  it.each(LANGUAGES)(
    'the credential test meeting the rate limit asks for a retry in n8n’s terms (%s)',
    async (language) => {
      const ping = clinicApi(language)
        .get(clinicPath('/ping'))
        .reply(...reply(`clinic-errors-${language}`, { error: 'rate_limited' }));
      const { clinic_api_token, clinic_base_url } = credentials;
      const result = await testConnection({ data: { clinic_api_token, clinic_base_url, language } });
      ping.done();
      expect(result.status).toBe('Error');
      expect(result.message).not.toMatch(ZAP);
      expect(result.message).toMatch(
        /rate limit .+; try again shortly \(the node’s Retry On Fail setting retries by itself\)\./,
      );
    },
  );

  it.each(LANGUAGES)(
    'Minutes Before Start under the floor names Poll Times, not Zapier’s plans (%s)',
    async (language) => {
      const node = new ClinicCashierStartingSoonTrigger();
      const params = {
        ...Object.fromEntries(node.description.properties.map((p) => [p.name, p.default])),
        pollTimes: { item: [{ mode: 'everyMinute' }] },
        minutes_before: '10',
      };
      const err = await failure(() =>
        node.poll.call(inLanguage(pollContext(params).context, language) as never),
      );
      expect(err.message).not.toMatch(ZAP);
      expect(halves(err.message)[0]).toMatch(
        /The app lets polls be up to 15 minutes apart \(Poll Times\), so with fewer minutes an appointment could start between two checks/,
      );
    },
  );
});

/*
 * The app's messages, read from its source: every `en` and `ar` of a message object (a template's `${…}` kept as
 * written, the literals inside it included). Help texts are no message: they pass through the description wording.
 */
const messagesOf = (file: string): Array<{ where: string; text: string }> => {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const out: Array<{ where: string; text: string }> = [];
  const visit = (node: ts.Node) => {
    if (ts.isPropertyAssignment(node) && ['en', 'ar'].includes(node.name.getText(source))) {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      out.push({ where: `${path.relative(ROOT, file)}:${line}`, text: node.initializer.getText(source) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
};
const APP_MESSAGES = appSources().flatMap(messagesOf);

/**
 * Messages no n8n node can raise: Transfer's (n8n has no Transfer) and an instant trigger's perform without a
 * delivery (n8n runs the trigger's perform only on a delivery).
 */
const NOT_IN_N8N = [/^lib\/hooks\/transfer\.ts:/, /is an instant trigger: it runs when/, /مشغّل فوري/];

/** Zapier's own words, which n8n's (src/host.ts) stand in for. */
const ZAPIER_WORDS = /^lib\/host\.ts:/;

describe('the app’s messages', () => {
  it('reads them', () => {
    expect(APP_MESSAGES.length).toBeGreaterThan(150);
  });

  it('say nothing of a Zap or Zapier a node can raise, in English or Arabic, but through the host’s words', () => {
    const reachable = APP_MESSAGES.filter(
      (m) => ![...NOT_IN_N8N, ZAPIER_WORDS].some((re) => re.test(`${m.where}: ${m.text}`)),
    );
    expect(reachable.length).toBeGreaterThan(150);
    expect(reachable.filter((m) => ZAP.test(m.text))).toEqual([]);
  });
});
