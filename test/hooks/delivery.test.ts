/* A delivery (lib/hooks/delivery.ts): the signature, the refusals, the item, and the id remembered per subscription. */
import fc from 'fast-check';
import { partnerHeaders } from '../../lib/hooks/delivery';
import { EVENTS } from '../../lib/hooks/events';
import { data, delivered, type Json } from '../fixtures';
import { expectSarSiblings } from '../support/money';
import {
  asRecorded,
  envelopeOf,
  expectedId,
  expectPatientCall,
  forgetDeliveries,
  op,
  recordedContact,
  run,
  sandboxSigned,
  SECRET,
  subscribeData,
  TARGET_PATH,
  withPatient,
} from '../support/hooks';
import { appTester, AUTH, clinicApi, clinicPath, delivery, nowSeconds, useNock } from '../helpers';
import { reply } from '../fixtures';

useNock();
// sandboxSigned sets the app's clock at a recorded delivery's timestamp.
afterEach(() => jest.useRealTimers());
// Each test starts with an empty z.cache, so the recorded deliveries reused across tests are not repeats.
beforeEach(forgetDeliveries);

describe.each(EVENTS.map((def) => [def.key, def] as const))('%s', (_key, def) => {
  it('verifies the sandbox’s own signature on its recorded delivery, and refuses it with one byte changed', async () => {
    const envelope = delivered(def.event);
    if (withPatient(def) && (!def.when || def.when(envelope.data))) {
      expectPatientCall(String(envelope.data.patient_id));
    }
    const bundle = { authData: AUTH, inputData: {}, ...sandboxSigned(def) };
    // A status trigger whose status the recorded update is not: verified, then not its event (no item).
    await expect(run<unknown[]>(op(def.key).perform, bundle)).resolves.toHaveLength(
      !def.when || def.when(envelope.data) ? 1 : 0,
    );
    forgetDeliveries();
    const raw = bundle.rawRequest.content;
    const at = raw.indexOf(String(envelope.id)) + 4;
    const changed = `${raw.slice(0, at)}${raw[at] === 'A' ? 'B' : 'A'}${raw.slice(at + 1)}`;
    const error = await run(op(def.key).perform, {
      authData: AUTH,
      inputData: {},
      ...sandboxSigned(def, def.event, changed),
    }).catch((e: Error) => e);
    expect(changed).not.toBe(raw);
    expect((error as Error).name).toBe('HaltedError');
    expect((error as Error).message).toMatch(/does not match/);
  });

  it('turns a signed delivery into one item with the object, event_id, occurred_at and SAR siblings', async () => {
    const envelope = envelopeOf(def);
    const data = envelope.data as Record<string, unknown>;
    const patientCall = withPatient(def) ? expectPatientCall(String(data.patient_id)) : undefined;
    const bundle = {
      authData: AUTH,
      inputData: {},
      // The sandbox's delivery as it signed it; a status trigger's moved body is signed here (the sandbox never
      // sent it).
      ...(asRecorded(def)
        ? sandboxSigned(def)
        : {
            subscribeData: subscribeData(def),
            ...delivery({ secret: SECRET, path: TARGET_PATH, envelope }),
          }),
    };
    const items = await run<Array<Record<string, unknown>>>(op(def.key).perform, bundle);
    expect(items).toHaveLength(1);
    const item = items[0]!;
    expect(envelope.event).toBe(def.event);
    expect(item.id).toBe(expectedId(def, data));
    expect(item.event_id).toBe(envelope.id);
    expect(item.occurred_at).toBe(envelope.occurred_at);
    for (const [k, v] of Object.entries(data)) {
      if (k !== 'changes')
        expect(item[k]).toEqual(expect.anything() === v ? v : item[k] === undefined ? v : item[k]);
      if (k !== 'changes' && (typeof v !== 'object' || v === null)) expect(item[k]).toEqual(v);
    }
    const money = Object.keys(data).some((k) => k.endsWith('_halalas'));
    expect(expectSarSiblings(item) > 0).toBe(money);
    if (patientCall) {
      // One request per delivery (CONTRACT §8), and only the patient's name, contact and file number.
      expect(patientCall.isDone()).toBe(true);
      expect(item.patient).toEqual(recordedContact());
    } else {
      expect(item).not.toHaveProperty('patient');
    }
  });

  if (withPatient(def)) {
    it('reads no patient when Include Patient Details is off, and still fires without patients:read', async () => {
      const envelope = envelopeOf(def);
      const signed = () => delivery({ secret: SECRET, path: TARGET_PATH, envelope });
      const off = await run<Array<Record<string, unknown>>>(op(def.key).perform, {
        authData: AUTH,
        inputData: { include_patient: false },
        subscribeData: subscribeData(def),
        ...signed(),
      });
      expect(off).toHaveLength(1);
      const empty = { name_ar: null, name_en: null, phone: null, email: null, file_no: null };
      expect(off[0]!.patient).toEqual({ ...empty, status: 'off' });
      forgetDeliveries();
      clinicApi()
        .get(clinicPath(`/patients/${String(envelope.data.patient_id)}`))
        // The 403 a token without patients:read gets (recorded on a patient search): the answer only.
        .reply(...reply('find-patient-insufficient-ability'));
      const noAbility = await run<Array<Record<string, unknown>>>(op(def.key).perform, {
        authData: AUTH,
        inputData: {},
        subscribeData: subscribeData(def),
        ...signed(),
      });
      expect(noAbility).toHaveLength(1);
      expect(noAbility[0]!.patient).toEqual({ ...empty, status: 'no_access' });
      expect(noAbility[0]!.id).toBe(envelope.data.id);
    });
  }

  // appTester's z.cache ignores nx (a set always succeeds), so the repeat itself is tested with a cache that honours
  // it (test/dedupe.test.ts, test/hostile.test.ts); here, that each Zap's subscription remembers the id apart.
  it('remembers the event id per subscription, so another Zap gets the same event', async () => {
    const env = envelopeOf(def);
    const bundleFor = (subId: number) => ({
      authData: AUTH,
      inputData: {},
      subscribeData: subscribeData(def, subId),
      ...delivery({ secret: SECRET, path: TARGET_PATH, envelope: env }),
    });
    if (withPatient(def)) for (const _ of [1, 2]) expectPatientCall(String(env.data.patient_id));
    const first = await run<unknown[]>(op(def.key).perform, bundleFor(41));
    const otherZap = await run<unknown[]>(op(def.key).perform, bundleFor(42));
    expect([first.length, otherZap.length]).toEqual([1, 1]);
    const remembered = Object.keys((appTester as unknown as { zcacheTestObj: object }).zcacheTestObj);
    expect(remembered).toHaveLength(2);
    for (const sub of [41, 42]) {
      expect(remembered.some((k) => k.includes(`delivery:${def.api}:${sub}:${env.id}`))).toBe(true);
    }
  });
});

describe('partnerHeaders', () => {
  // The rule, written plainly: each own header in order, its name lower-cased and `http-` dropped; the first wins.
  const NAMES: Record<string, 'timestamp' | 'signature' | 'eventId'> = {
    'x-partner-timestamp': 'timestamp',
    'x-partner-signature': 'signature',
    'x-partner-event-id': 'eventId',
  };
  const reference = (headers: Record<string, string | string[]>) => {
    const found: Record<string, string | undefined> = {};
    for (const k of Object.keys(headers)) {
      const lower = k.toLowerCase();
      const name = NAMES[lower.startsWith('http-') ? lower.slice(5) : lower];
      const v = headers[k];
      if (name && found[name] === undefined) found[name] = Array.isArray(v) ? v[0] : v;
    }
    return found;
  };
  const partnerName = fc
    .tuple(
      fc.constantFrom(
        'X-Partner-Timestamp',
        'X-Partner-Signature',
        'X-Partner-Event-Id',
        'X-Partner-Event',
        'X-Partner-Delivery',
      ),
      fc.constantFrom('', 'Http-', 'http-', 'HTTP-'),
      fc.array(fc.boolean(), { minLength: 24, maxLength: 24 }),
    )
    .map(([name, prefix, upper]) =>
      [...`${prefix}${name}`].map((c, i) => (upper[i] ? c.toUpperCase() : c.toLowerCase())).join(''),
    );
  const value = fc.oneof(fc.string(), fc.array(fc.string(), { maxLength: 2 }));

  it('reads the partner headers in any case, with or without Http-, the first of a repeated one (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            // As Zapier passes them (Http-, Camel-Case), in another case, or any other name.
            fc.oneof(
              fc.constantFrom(
                'Http-X-Partner-Timestamp',
                'Http-X-Partner-Signature',
                'Http-X-Partner-Event-Id',
                'Http-X-Partner-Delivery',
              ),
              partnerName,
              fc.string(),
            ),
            value,
          ),
          { maxLength: 8 },
        ),
        (pairs) => {
          const headers = Object.fromEntries(pairs);
          const found = partnerHeaders(headers);
          const expected = reference(headers);
          for (const name of ['timestamp', 'signature', 'eventId'] as const)
            expect(found[name]).toBe(expected[name]);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('ignores inherited members and a missing header list', () => {
    const headers = Object.create({ 'Http-X-Partner-Timestamp': '1' }) as Record<string, string>;
    headers['x-partner-signature'] = 'sha256=x';
    expect(partnerHeaders(headers)).toEqual({ signature: 'sha256=x' });
    expect(partnerHeaders(undefined)).toEqual({});
  });
});

describe('delivery checks (appointment_created)', () => {
  const def = EVENTS.find((e) => e.key === 'appointment_created')!;
  const perform = op(def.key).perform;
  const genuine = (over: Partial<Parameters<typeof delivery>[0]> = {}) => ({
    authData: AUTH,
    // The checks come before any request; a delivery that passes them reads no patient here.
    inputData: { include_patient: false },
    subscribeData: subscribeData(def),
    ...delivery({ secret: SECRET, path: TARGET_PATH, envelope: envelopeOf(def), ...over }),
  });
  const tamper = (bundle: ReturnType<typeof genuine>, content: string) => ({
    ...bundle,
    rawRequest: { ...bundle.rawRequest, content },
  });
  const envelope = envelopeOf(def);

  it.each([
    [
      'a tampered body',
      () => tamper(genuine(), JSON.stringify({ ...envelope, tenant_id: envelope.tenant_id + 1 })),
      /does not match/,
    ],
    ['a wrong secret', () => genuine({ secret: 'whsec_not_this_one' }), /does not match/],
    [
      'a stale timestamp',
      () => genuine({ timestamp: String(nowSeconds() - 301) }),
      /more than 5 minutes old/,
    ],
    ['a future timestamp', () => genuine({ timestamp: String(nowSeconds() + 360) }), /in the future/],
    ['a non-digit timestamp', () => genuine({ timestamp: `${nowSeconds()}.0` }), /not a number of seconds/],
    ['no signature header', () => genuine({ signature: null }), /no X-Partner-Signature/],
    ['a malformed signature', () => genuine({ signature: 'md5=abc' }), /sha256=<64 hex digits>/],
    [
      'an event id header that differs from the body',
      () => genuine({ eventIdHeader: 'evt_other' }),
      /differs/,
    ],
    [
      'a signed body that is not an envelope',
      () => genuine({ rawBody: 'not json', envelope: { id: 'x', event: def.event } }),
      /not a JSON event envelope/,
    ],
  ])('refuses %s with HaltedError saying why', async (_name, make, message) => {
    const error = await run(perform, make()).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).name).toBe('HaltedError');
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).toMatch(/turn the Zap off and on/);
  });

  it('refuses a delivery when the Zap holds no signing secret', async () => {
    const error = await run(perform, { ...genuine(), subscribeData: { id: 41 } }).catch((e: Error) => e);
    expect((error as Error).message).toMatch(/holds no signing secret/);
  });

  it('reads headers whatever their case', async () => {
    const bundle = genuine();
    const lower = Object.fromEntries(
      Object.entries(bundle.rawRequest.headers).map(([k, v]) => [k.toLowerCase(), v]),
    );
    const items = await run<unknown[]>(perform, {
      ...bundle,
      rawRequest: { ...bundle.rawRequest, headers: lower },
    });
    expect(items).toHaveLength(1);
  });

  it('says the refusal in English, then Arabic, when the connection is in Arabic', async () => {
    const error = await run(perform, {
      ...genuine({ secret: 'whsec_x' }),
      authData: { ...AUTH, language: 'ar' },
    }).catch((e: Error) => e);
    expect((error as Error).message).toMatch(/refused.* — .*رُفض التسليم/i);
  });

  it('ignores a ping (test delivery)', async () => {
    // The sandbox's test delivery (POST /webhooks/{id}/test), recorded, with the sandbox's signature.
    expect(delivered('ping').event).toBe('ping');
    const bundle = { ...genuine(), ...sandboxSigned(def, 'ping') };
    await expect(run(perform, bundle)).resolves.toEqual([]);
  });

  it('does not let a forged delivery block the genuine one with the same event id', async () => {
    const forged = await run(perform, genuine({ secret: 'whsec_attacker' })).catch((e: Error) => e);
    expect((forged as Error).name).toBe('HaltedError');
    await expect(run<unknown[]>(perform, genuine())).resolves.toHaveLength(1);
  });
});

describe('privacy (CONTRACT §7)', () => {
  const def = EVENTS.find((e) => e.key === 'invoice_paid')!;
  it('strips procedure codes, descriptions, teeth and surfaces from invoice lines, and unknown fields', async () => {
    // The recorded delivery's lines carry code, description, tooth and surfaces, as the clinic's do.
    const envelope = envelopeOf(def);
    const lines = envelope.data.lines as Json[];
    expect(lines.every((l) => 'code' in l && 'description' in l && 'tooth' in l && 'surfaces' in l)).toBe(
      true,
    );
    // hand-built addition: an unknown clinical field beside them.
    envelope.data.clinical_note = 'pain upper left';
    // The patient read's answer carries more of the patient (birth date, sex, id digits): none of it passes.
    const patient = data('find-patient-by-id');
    expectPatientCall(String(envelope.data.patient_id));
    const [item] = await run<Array<Record<string, unknown>>>(op(def.key).perform, {
      authData: AUTH,
      inputData: {},
      subscribeData: subscribeData(def),
      ...delivery({ secret: SECRET, path: TARGET_PATH, envelope }),
    });
    const text = JSON.stringify(item);
    const values = lines.flatMap((l) => [l.code, l.description]).filter((v) => typeof v === 'string' && v);
    for (const word of [...values, '"tooth"', 'surfaces', 'clinical_note', '"code"', '"description"']) {
      expect(text).not.toContain(word);
    }
    for (const held of [patient.birth_date, patient.national_id_last4, '"sex"', 'nationality'])
      expect(text).not.toContain(held);
    expect(item!.patient).toEqual(recordedContact());
    expect(item!.paid_at).toBe(envelope.data.paid_at);
    expect((item!.lines as Json[]).map((l) => l.line_no)).toEqual(lines.map((l) => l.line_no));
  });
});
