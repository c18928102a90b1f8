import { EVENTS } from '../lib/hooks/events';
import type { HookEvent } from '../lib/hooks/types';
import type { SubscribeData } from '../lib/hooks/types';
import {
  cloneDefinition,
  loadDefinition,
  sampleKeysOf,
  staticFields,
  type AppDefinition,
  type FieldDef,
} from '../scripts/checks/definition';
import { placeholderLinks, RULES, titleCaseProblem } from '../scripts/checks/rules';
import { data, delivered as recordedDelivery, reply, type Json, replay } from './fixtures';
import {
  App,
  appTester,
  AUTH,
  cashierApi,
  cashierPath,
  clinicApi,
  clinicPath,
  delivery,
  useNock,
} from './helpers';

/*
 * Zapier's integration checks that the definition alone decides (scripts/checks/rules.ts), run on the app's
 * definition.json form. Zapier runs them again on its servers before the app can go public; here they fail the
 * build first. Each rule is also run on a copy of the definition broken exactly where it guards, so a rule that
 * stopped checking anything would fail too.
 */

const definition = loadDefinition(App);

/** The rules this suite enforces. Removing one is a decision: change this list with it. */
const ENFORCED = [
  'D002',
  'D003',
  'D004',
  'D005',
  'D006',
  'D007',
  'D008',
  'D009',
  'D010',
  'D011',
  'D012',
  'D013',
  'D014',
  'D015',
  'D018',
  'D021',
  'D022',
  'D023',
  'D024',
  'APP-ID-LABEL',
  'APP-FIND-LABEL',
  'APP-ENGLISH',
  'APP-ZONE',
  'APP-OUTPUT-LABELS',
  'APP-MONEY',
  'APP-REQUIRED-FIRST',
  'APP-DATETIME',
  'APP-QUANTITY',
  'APP-EXAMPLE',
  'APP-LINE-HELP',
  'APP-TIME-HELP',
  'APP-CONNECTION-LABEL',
  'APP-NO-PLACEHOLDER-LINK',
];

describe('integration checks on the app definition', () => {
  it('enforces the listed rules, each once', () => {
    expect(RULES.map((r) => r.id)).toEqual(ENFORCED);
  });

  it.each(RULES.map((rule) => [`${rule.id} ${rule.title}`, rule] as const))('%s', (_name, rule) => {
    expect(rule.check(definition)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------------
// The checker itself: each rule catches what it guards.

type Breaker = (d: AppDefinition) => string;

const op = (d: AppDefinition, kind: 'triggers' | 'creates' | 'searches', key: string) => {
  const action = d[kind][key];
  if (!action) throw new Error(`the definition has no ${kind}.${key}`);
  return action;
};

const input = (d: AppDefinition, kind: 'triggers' | 'creates' | 'searches', key: string, path: string) => {
  const [parent, child] = path.split('[]');
  let field = staticFields(op(d, kind, key).operation.inputFields).find((f) => f.key === parent);
  if (child) field = staticFields(field?.children).find((f) => f.key === child);
  if (!field) throw new Error(`${kind}.${key} has no input ${path}`);
  return field;
};

const authField = (d: AppDefinition, key: string): FieldDef => {
  const field = d.authentication?.fields?.find((f) => f.key === key);
  if (!field) throw new Error(`no auth field ${key}`);
  return field;
};

const sample = (d: AppDefinition, kind: 'triggers' | 'creates' | 'searches', key: string) =>
  op(d, kind, key).operation.sample!;

/** For each rule: ways to break the definition, each returning a fragment the rule's problems must name. */
const BREAKERS: Record<string, Record<string, Breaker>> = {
  D002: {
    'a token field whose help says nowhere (no link, no **back-office path**)': (d) => {
      authField(d, 'clinic_api_token').helpText = 'Copy it from Developers → API clients in the back office.';
      return 'authentication.fields.clinic_api_token';
    },
    'a token field linking over http': (d) => {
      authField(d, 'cashier_api_token').helpText = 'See [API clients](http://help.example.com/api-clients).';
      return 'authentication.fields.cashier_api_token';
    },
  },
  D003: {
    'no connection label': (d) => {
      delete d.authentication!.connectionLabel;
      return 'no connectionLabel';
    },
    'a label showing a token': (d) => {
      d.authentication!.connectionLabel = '{{bundle.authData.clinic_api_token}}';
      return 'clinic_api_token';
    },
    'a label naming no account': (d) => {
      d.authentication!.connectionLabel = 'Clinic';
      return 'names no account';
    },
  },
  D004: {
    'an action id without dropdown or search': (d) => {
      const field = input(d, 'creates', 'cancel_order', 'order_id');
      delete field.dynamic;
      delete field.search;
      return 'creates.cancel_order.inputFields.order_id';
    },
    'a trigger filter id without dropdown': (d) => {
      delete input(d, 'triggers', 'invoice_issued', 'branch_id').dynamic;
      return 'triggers.invoice_issued.inputFields.branch_id';
    },
    'a line-item id without dropdown': (d) => {
      delete input(d, 'creates', 'create_order', 'lines[]variant_id').dynamic;
      return 'lines[]variant_id';
    },
  },
  D005: {
    'a dropdown naming no trigger': (d) => {
      input(d, 'creates', 'create_order', 'lines[]variant_id').dynamic = 'variant_lists.id.label';
      return 'names no trigger';
    },
    'a dropdown naming a field its trigger lacks': (d) => {
      input(d, 'creates', 'book_appointment', 'branch_id').dynamic = 'clinic_branch_list.uuid.label';
      return 'has no field uuid';
    },
  },
  D006: {
    'a hook trigger without performList': (d) => {
      delete op(d, 'triggers', 'stock_low').operation.performList;
      return 'triggers.stock_low: a hook trigger without performList';
    },
  },
  D007: {
    'an http address': (d) => {
      op(d, 'searches', 'find_patient').display.description = 'Finds a patient. See http://help.example.com.';
      return 'searches.find_patient';
    },
  },
  D008: {
    'a broken link': (d) => {
      authField(d, 'clinic_api_token').helpText = 'See the [API clients page(https://help.example.com).';
      return 'authentication.fields.clinic_api_token';
    },
    'a bare address': (d) => {
      input(d, 'creates', 'create_order', 'branch_id').helpText =
        'Branches are listed at https://help.example.com.';
      return 'bare web address';
    },
    'a link to something that is not an address': (d) => {
      input(d, 'creates', 'create_order', 'branch_id').helpText = 'See [the branches](Settings → Branches).';
      return 'broken markdown link';
    },
  },
  D009: {
    'a search without fields': (d) => {
      op(d, 'searches', 'find_order').operation.inputFields = [];
      return 'searches.find_order';
    },
  },
  D010: {
    'a sample without id': (d) => {
      delete sample(d, 'triggers', 'appointment_created').id;
      return 'triggers.appointment_created: the sample has no id';
    },
    'a sample without its primary field': (d) => {
      const outputs = staticFields(op(d, 'triggers', 'stock_low').operation.outputFields);
      outputs.find((o) => o.key === 'variant_id')!.primary = true;
      delete sample(d, 'triggers', 'stock_low').variant_id;
      return 'the sample has no variant_id';
    },
  },
  D011: {
    'help that repeats the label': (d) => {
      input(d, 'creates', 'create_order', 'customer_name').helpText = 'The customer name.';
      return 'creates.create_order.inputFields.customer_name';
    },
    'no help text': (d) => {
      delete input(d, 'searches', 'find_patient', 'file_no').helpText;
      return 'searches.find_patient.inputFields.file_no: no help text';
    },
  },
  D012: {
    'a hidden trigger without sample': (d) => {
      delete op(d, 'triggers', 'branch_list').operation.sample;
      return 'triggers.branch_list';
    },
  },
  D013: {
    'a search-powered field naming no search': (d) => {
      input(d, 'creates', 'book_appointment', 'patient_id').search = 'find_patients.id';
      return 'names no search';
    },
    'a search-powered field naming a field the search lacks': (d) => {
      input(d, 'creates', 'update_item', 'item_id').search = 'find_item.uuid';
      return 'has no field uuid';
    },
  },
  D014: {
    'a search-powered field without dropdown': (d) => {
      delete input(d, 'creates', 'book_appointment', 'patient_id').dynamic;
      return 'creates.book_appointment.inputFields.patient_id';
    },
  },
  D015: {
    'a pair naming no action': (d) => {
      d.searchOrCreates!.find_item!.create = 'create_items';
      return 'names no action create_items';
    },
    'a pair whose key is not its search': (d) => {
      d.searchOrCreates!.find_item!.search = 'find_order';
      return 'must equal';
    },
  },
  D018: {
    'an action label in sentence case': (d) => {
      op(d, 'creates', 'create_order').display.label = 'Create order';
      return 'creates.create_order';
    },
    'a field label in lower case': (d) => {
      input(d, 'searches', 'find_item', 'barcode').label = 'barcode';
      return 'searches.find_item.inputFields.barcode';
    },
  },
  D021: {
    'a trigger description that does not start "Triggers when "': (d) => {
      op(d, 'triggers', 'invoice_paid').display.description = 'Fires when an invoice is paid.';
      return 'triggers.invoice_paid';
    },
    'a trigger description without a full stop': (d) => {
      op(d, 'triggers', 'item_list').display.description = 'Triggers when an item dropdown opens';
      return 'triggers.item_list';
    },
  },
  D022: {
    'an action with dynamic fields only': (d) => {
      op(d, 'creates', 'cancel_order').operation.inputFields = ['$func$2$f$'];
      return 'creates.cancel_order';
    },
  },
  D023: {
    'a time without its zone': (d) => {
      sample(d, 'triggers', 'invoice_issued').issued_at = '2026-11-21T11:20:45';
      return 'triggers.invoice_issued: sample issued_at';
    },
    'a date that is not ISO-8601': (d) => {
      sample(d, 'triggers', 'receipt_issued').business_date = '2026-11-21 (Saturday)';
      return 'sample business_date';
    },
  },
  D024: {
    'an amount as text': (d) => {
      sample(d, 'searches', 'find_invoice').total_halalas = '46000';
      return 'searches.find_invoice: sample total_halalas "46000" is not integer';
    },
    'a required output missing from the sample': (d) => {
      const outputs = staticFields(op(d, 'creates', 'create_order').operation.outputFields);
      outputs.find((o) => o.key === 'external_id')!.required = true;
      delete sample(d, 'creates', 'create_order').external_id;
      return 'lacks required external_id';
    },
    'a line-item value of the wrong type': (d) => {
      const lines = sample(d, 'triggers', 'receipt_issued').lines as Array<Record<string, unknown>>;
      lines[1]!.line_no = 'two';
      return 'sample lines[]line_no "two"';
    },
  },
  'APP-ID-LABEL': {
    'an input labelled "… ID"': (d) => {
      input(d, 'creates', 'book_appointment', 'patient_id').label = 'Patient ID';
      return 'creates.book_appointment.inputFields.patient_id';
    },
  },
  'APP-FIND-LABEL': {
    'a search not labelled "Find …"': (d) => {
      op(d, 'searches', 'find_patient').display.label = 'Search Patients';
      return 'searches.find_patient';
    },
  },
  'APP-ENGLISH': {
    'Arabic help text': (d) => {
      input(d, 'creates', 'book_appointment', 'note').helpText = 'ملاحظة قصيرة لموظف الاستقبال.';
      return 'creates.book_appointment.inputFields.note';
    },
    'an Arabic example outside backticks': (d) => {
      input(d, 'creates', 'create_item', 'name_ar').helpText = 'The Arabic name, e.g. قهوة عربية.';
      return 'creates.create_item.inputFields.name_ar';
    },
  },
  'APP-ZONE': {
    'a sample time in UTC': (d) => {
      sample(d, 'triggers', 'appointment_created').starts_at = '2026-11-24T07:30:00Z';
      return 'triggers.appointment_created: sample starts_at';
    },
  },
  'APP-OUTPUT-LABELS': {
    'a sample key without output field': (d) => {
      sample(d, 'triggers', 'appointment_created').room_name = 'Room 3';
      return 'sample key room_name';
    },
    'a nested sample key without output field': (d) => {
      sample(d, 'searches', 'find_z_report').counted = { cash_halalas: 412050, cash_sar: '4120.50', card: 1 };
      return 'sample key counted__card';
    },
  },
  'APP-MONEY': {
    'an amount without its SAR output': (d) => {
      const action = op(d, 'searches', 'find_invoice');
      action.operation.outputFields = staticFields(action.operation.outputFields).filter(
        (o) => o.key !== 'total_sar',
      );
      return 'output total_halalas has no _sar sibling';
    },
    'a SAR output not labelled "(SAR)"': (d) => {
      const outputs = staticFields(op(d, 'creates', 'create_order').operation.outputFields);
      outputs.find((o) => o.key === 'total_sar')!.label = 'Total';
      return 'output total_sar is not labelled';
    },
    'a sample amount with a stale SAR sibling': (d) => {
      sample(d, 'triggers', 'credit_note_issued').total_sar = '35.00';
      return 'triggers.credit_note_issued: sample total_halalas=1100';
    },
  },
  'APP-REQUIRED-FIRST': {
    'a required input after an optional one': (d) => {
      const fields = op(d, 'creates', 'book_appointment').operation.inputFields!;
      const at = fields.findIndex((f) => typeof f === 'object' && f.key === 'patient_id');
      fields.unshift(...fields.splice(at, 1));
      return 'creates.book_appointment.inputFields: required branch_id comes after optional patient_id';
    },
    'a required line-item field after an optional one': (d) => {
      const lines = input(d, 'creates', 'create_order', 'lines');
      lines.children = [...lines.children!].reverse();
      return 'creates.create_order.inputFields.lines[]: required qty comes after optional';
    },
  },
  'APP-DATETIME': {
    'a start time as text': (d) => {
      delete input(d, 'creates', 'book_appointment', 'starts_at').type;
      return 'creates.book_appointment.inputFields.starts_at: takes a date and time but is string';
    },
    'a range bound as text': (d) => {
      input(d, 'searches', 'find_appointment', 'from').type = 'string';
      return 'searches.find_appointment.inputFields.from';
    },
    'a date-only field whose example has a time': (d) => {
      input(d, 'searches', 'find_invoice', 'issued_from').helpText =
        'Only invoices issued from this moment, e.g. 2026-11-01T08:00:00+03:00.';
      return 'searches.find_invoice.inputFields.issued_from';
    },
  },
  'APP-QUANTITY': {
    'a quantity as text': (d) => {
      input(d, 'creates', 'create_order', 'lines[]qty').type = 'string';
      return 'creates.create_order.inputFields.lines[]qty: a quantity of type string';
    },
  },
  'APP-EXAMPLE': {
    'a phone without example': (d) => {
      delete input(d, 'creates', 'book_appointment', 'patient_phone').placeholder;
      return 'creates.book_appointment.inputFields.patient_phone: a phone input';
    },
    'an amount without example': (d) => {
      const field = input(d, 'creates', 'create_order', 'lines[]unit_price_sar');
      delete field.placeholder;
      field.helpText = 'Price of one, VAT included. Leave blank to use the catalogue price.';
      return 'lines[]unit_price_sar: a money input';
    },
    'an id without example': (d) => {
      delete input(d, 'creates', 'cancel_order', 'order_id').placeholder;
      return 'creates.cancel_order.inputFields.order_id: an id input';
    },
    'a whole-number id whose placeholder is not one': (d) => {
      input(d, 'creates', 'book_appointment', 'branch_id').placeholder = 'Olaya';
      return 'placeholder "Olaya" is not a whole number';
    },
  },
  'APP-LINE-HELP': {
    'a line-item field without help': (d) => {
      delete input(d, 'creates', 'create_order', 'lines[]sku').helpText;
      return 'creates.create_order.inputFields.lines[]sku: a line-item field without help text';
    },
  },
  'APP-TIME-HELP': {
    'a start time whose help does not say how Zapier reads it': (d) => {
      input(d, 'creates', 'book_appointment', 'starts_at').helpText =
        'When the appointment starts, e.g. 2026-11-24T10:30:00+03:00 (Riyadh).';
      return "starts_at: help does not name the Zap's timezone";
    },
    'a start time whose help forgets Riyadh’s +03:00': (d) => {
      input(d, 'creates', 'book_appointment', 'starts_at').helpText =
        'When the appointment starts. A time without an offset is read in the Zap’s timezone.';
      return 'starts_at: help does not say the branches keep Riyadh time (+03:00)';
    },
  },
  'APP-CONNECTION-LABEL': {
    'a bare word': (d) => {
      d.authentication!.connectionLabel = 'connected';
      return 'is a bare word';
    },
    'a lone template': (d) => {
      d.authentication!.connectionLabel = '{{bundle.inputData.clinic.account}}';
      return 'is a bare word';
    },
    'a label naming neither interface': (d) => {
      d.authentication!.connectionLabel = 'Account {{bundle.inputData.clinic.account}}';
      return 'names neither the clinic nor the cashier';
    },
  },
  'APP-NO-PLACEHOLDER-LINK': {
    'an example.com link in a token’s help': (d) => {
      authField(d, 'clinic_api_token').helpText =
        'Copy it from **Developers → API clients** ([how to create an API client](https://help.example.com)).';
      return 'authentication.fields.clinic_api_token.helpText: the placeholder link https://help.example.com';
    },
    'a localhost address in a description': (d) => {
      op(d, 'searches', 'find_patient').display.description =
        'Finds a patient. See `http://localhost:3000/docs`.';
      return 'searches.find_patient.display.description: the placeholder link http://localhost:3000/docs';
    },
    'a test-domain address in a sample': (d) => {
      sample(d, 'searches', 'find_patient').photo_url = 'https://clinic.example.test/photos/1.jpg';
      return 'searches.find_patient: sample photo_url';
    },
  },
};

describe('each check fails on a definition broken where it guards', () => {
  it('every rule has at least one way to break it', () => {
    expect(Object.keys(BREAKERS).sort()).toEqual(RULES.map((r) => r.id).sort());
  });

  const cases = RULES.flatMap((rule) =>
    Object.entries(BREAKERS[rule.id] ?? {}).map(([what, breaker]) => [rule.id, what, rule, breaker] as const),
  );

  it.each(cases)('%s catches %s', (_id, _what, rule, breaker) => {
    const broken = cloneDefinition(definition);
    const fragment = breaker(broken);
    const problems = rule.check(broken);
    expect(problems).toEqual(expect.arrayContaining([expect.stringContaining(fragment)]));
  });

  it('leaves the real definition untouched', () => {
    expect(loadDefinition(App)).toEqual(definition);
  });
});

describe('placeholder links (APP-NO-PLACEHOLDER-LINK)', () => {
  it.each([
    'https://help.example.com/api',
    'https://example.org',
    'www.example.net/x',
    'http://localhost:3000',
    'https://127.0.0.1:8443/partner/v1',
    'https://clinic.example.test/partner/v1',
    'https://your-domain.com/help',
  ])('finds %s', (url) => {
    expect(placeholderLinks(`See ${url}.`)).toEqual([expect.stringContaining(url.replace(/\.$/, ''))]);
  });

  it.each([
    'https://docs.zapier.com/platform',
    'noura.q@example.com',
    'Developers → API clients',
    'e.g. 2026-11-24',
  ])('leaves %s alone', (text) => {
    expect(placeholderLinks(text)).toEqual([]);
  });
});

describe('Title Case (D018)', () => {
  it.each([
    'New Appointment',
    'Find or Create Item',
    'Refund of Receipt ID',
    'Stock Level ID (Branch:Variant)',
    'Find Z-Report',
    'Card Last 4 Digits',
  ])('accepts "%s"', (label) => {
    expect(titleCaseProblem(label)).toBeUndefined();
  });

  it.each(['new appointment', 'Find or create Item', 'of Receipt', 'Find Z-report', 'Book Appointment for'])(
    'refuses "%s"',
    (label) => {
      expect(titleCaseProblem(label)).toBeDefined();
    },
  );
});

// ---------------------------------------------------------------------------------------------------------
// D006 at run time: the definition shows that performList exists; these show its items are shaped like the
// items a delivery produces, so a field mapped from the test sample is there when the Zap runs.

describe('D006 at run time: performList items have the keys of delivered items', () => {
  useNock();
  beforeEach(() => {
    (appTester as unknown as { zcacheTestObj: object }).zcacheTestObj = {};
  });

  const TARGET_PATH = '/hooks/standard/1234/abcd5678/';
  const SECRET = 'whsec_d006';

  type Fn = (z: unknown, bundle: unknown) => unknown;
  const operationOf = (key: string) =>
    (App.triggers as unknown as Record<string, { operation: Record<string, Fn> }>)[key]!.operation;
  const run = (fn: Fn | undefined, bundle: object) =>
    appTester(fn as never, bundle as never) as Promise<Array<Record<string, unknown>>>;

  /** The recorded answers the samples come from: recent events, the cashier's lists, its catalogue. */
  const LIST_FIXTURE: Record<string, string> = {
    '/stock/levels': 'stock-low-list',
    '/customers': 'customers-list',
  };
  const CURSOR_FIXTURE: Record<string, string> = {
    receipt_issued: 'receipts-latest',
    credit_note_issued: 'credit-notes-latest',
  };
  const recentPath = (def: HookEvent) => `/webhooks/events/${def.event}/recent`;
  const catalogueEntry = (def: HookEvent): Json =>
    data('webhook-catalogue', { api: 'cashier' }).find((e: Json) => e.event === def.event);

  /** The envelope of the object performList shows first, as the recorded answer holds it. */
  const listedEnvelope = (def: HookEvent): Json => {
    if (def.sample.kind === 'recent') {
      // The first recent event the trigger fires on (a status trigger skips other updates), else its own sample.
      const recent = data('recent-events', {
        path: recentPath(def),
        query: { limit: def.when ? '25' : '3' },
      }) as Json[];
      return recent.find((e) => !def.when || def.when(e.data)) ?? staticSampleEnvelope(def);
    }
    if (def.sample.kind === 'list') {
      // hand-built envelope: the recorded list's first row in the envelope of the event's recorded delivery,
      // so that both paths see the same object (the lists hold bare objects).
      return { ...recordedDelivery(def.event), data: data(LIST_FIXTURE[def.sample.path]!)[0] };
    }
    if (def.sample.kind === 'cursor') {
      // hand-built envelope: the last arrived object of the recorded cursor page, as above.
      const { keeps } = def.sample;
      const kept = (data(CURSOR_FIXTURE[def.key]!) as Json[]).filter((o) => !keeps || keeps(o));
      return { ...recordedDelivery(def.event), data: kept[kept.length - 1] };
    }
    return catalogueEntry(def).sample;
  };

  /**
   * hand-built envelope: the app's own static sample object (without the app's additions) in the event's
   * recorded delivery envelope. The static sample must be what perform makes of that very object; a genuine
   * delivery is another object, whose optional members differ.
   */
  const staticSampleEnvelope = (def: HookEvent): Json => ({
    ...recordedDelivery(def.event),
    data: JSON.parse(
      JSON.stringify(def.sampleData ?? def.resource.sample, (k, v) =>
        k.endsWith('_sar') || (def.key === 'stock_low' && k === 'id') ? undefined : v,
      ),
    ),
  });

  const listed = async (def: HookEvent) => {
    if (def.sample.kind === 'recent') {
      const path = recentPath(def);
      // A status trigger asks up to 25 recent updates, the others 3 (each read recorded as it is made).
      const limit = def.when ? '25' : '3';
      clinicApi()
        .get(clinicPath(path))
        .query({ limit })
        .reply(replay('recent-events', { path, query: { limit } }));
    } else if (def.sample.kind === 'list') {
      cashierApi()
        .get(cashierPath(def.sample.path))
        .query({ ...def.sample.query, per_page: 3 })
        .reply(replay(LIST_FIXTURE[def.sample.path]!));
    } else if (def.sample.kind === 'cursor') {
      cashierApi()
        .get(cashierPath(def.sample.path))
        .query({ ...def.sample.query, per_page: 100 })
        .reply(replay(CURSOR_FIXTURE[def.key]!));
    } else {
      cashierApi()
        .get(cashierPath('/webhooks/events'))
        .reply(replay('webhook-catalogue', { api: 'cashier' }));
    }
    return run(operationOf(def.key).performList, { authData: AUTH, inputData: {} });
  };

  const delivered = (def: HookEvent, envelope: Json) => {
    const subscribeData: SubscribeData = {
      id: 41,
      secret: SECRET,
      target_path: TARGET_PATH,
      event: def.event,
      api: def.api,
    };
    return run(operationOf(def.key).perform, {
      authData: AUTH,
      inputData: {},
      subscribeData,
      ...delivery({ secret: SECRET, path: TARGET_PATH, envelope }),
    });
  };

  it.each(EVENTS.map((def) => [def.key, def] as const))('%s', async (key, def) => {
    // Items that carry a patient read it (each path here), all answered with one recorded patient: the answer
    // only (what is checked here is the items' keys, not which patient).
    clinicApi()
      .persist()
      .get(new RegExp(`^${clinicPath('/patients/')}[0-9A-Z]{26}$`))
      .optionally()
      .reply(...reply('find-patient-by-id'));
    const [fromList] = await listed(def);
    const [fromHook] = await delivered(def, listedEnvelope(def));
    (appTester as unknown as { zcacheTestObj: object }).zcacheTestObj = {};
    const [fromSample] = await delivered(def, staticSampleEnvelope(def));

    expect(fromHook).toBeDefined();
    expect(sampleKeysOf(fromList).sort()).toEqual(sampleKeysOf(fromHook).sort());
    expect(sampleKeysOf(definition.triggers[key]!.operation.sample).sort()).toEqual(
      sampleKeysOf(fromSample).sort(),
    );
  });
});
