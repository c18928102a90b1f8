import { cloneDefinition } from '../../scripts/checks/definition';
import { titleCaseProblem, ZAPIER_RULES } from '../../scripts/checks/zapier-rules';
import { validateAppDefinition } from 'zapier-platform-schema';
import { authField, definition, describeRules, input, op, sample, type Breaker } from './breaking';
import { staticFields } from '../../scripts/checks/definition';

/*
 * Zapier's integration checks that the definition alone decides (scripts/checks/zapier-rules.ts), under Zapier's
 * codes. Zapier runs them again on its servers before the app can go public; here they fail the build first.
 */

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
  'D018',
  'D021',
  'D022',
  'D023',
  'D024',
];

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
      delete input(d, 'triggers', 'invoice_issued', 'branch_id').choices;
      return 'triggers.invoice_issued.inputFields.branch_id';
    },
    'a line-item id without dropdown': (d) => {
      delete input(d, 'creates', 'create_order', 'lines[]variant_id').choices;
      return 'lines[]variant_id';
    },
    'an id whose choices.perform dropdown is gone': (d) => {
      delete input(d, 'creates', 'book_appointment', 'branch_id').choices;
      return 'creates.book_appointment.inputFields.branch_id';
    },
    'a line-item id whose choices have no perform': (d) => {
      input(d, 'creates', 'update_item', 'variants[]variant_id').choices = {};
      return 'variants[]variant_id';
    },
  },
  D005: {
    'a dropdown naming no trigger': (d) => {
      input(d, 'creates', 'create_order', 'lines[]variant_id').dynamic = 'variant_lists.id.label';
      return 'names no trigger';
    },
    'a dropdown naming a field its trigger lacks': (d) => {
      input(d, 'searches', 'find_appointment', 'branch_id').dynamic = 'clinic_branch_list.uuid.label';
      return 'has no field uuid';
    },
    'a choices dropdown naming a trigger where its perform goes': (d) => {
      input(d, 'creates', 'book_appointment', 'practitioner_id').choices = { perform: 'practitioner_list' };
      return 'creates.book_appointment.inputFields.practitioner_id: choices.perform is not a function or request';
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
    'a search-powered field that takes a list': (d) => {
      input(d, 'creates', 'book_appointment', 'patient_id').list = true;
      return 'creates.book_appointment.inputFields.patient_id: a search-powered field that takes a list';
    },
    'a search-powered field of type boolean': (d) => {
      input(d, 'creates', 'update_item', 'item_id').type = 'boolean';
      return 'creates.update_item.inputFields.item_id: a search-powered field of type boolean';
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
};

describeRules(ZAPIER_RULES, ENFORCED, BREAKERS);

// Left to `zapier-platform validate --without-style` (npm test runs it): the schema it checks the app against
// refuses these, so no rule of ours repeats them.
describe('D015, left to zapier-platform validate: a search-or-create names a search and an action that exist', () => {
  const refusals = (breaker: Breaker) => {
    const broken = cloneDefinition(definition);
    const fragment = breaker(broken);
    return { fragment, errors: validateAppDefinition(broken).errors.map((e) => e.stack) };
  };

  it('the app passes', () => {
    expect(validateAppDefinition(cloneDefinition(definition)).errors).toEqual([]);
  });

  it.each<[string, Breaker]>([
    [
      'a pair naming no action',
      (d) => {
        d.searchOrCreates!.find_item!.create = 'create_items';
        return 'searchOrCreates.find_item.create';
      },
    ],
    [
      'a pair naming no search',
      (d) => {
        d.searchOrCreates!.find_item!.search = 'find_items';
        return 'searchOrCreates.find_item.search';
      },
    ],
    [
      'a pair whose key names no search',
      (d) => {
        d.searchOrCreates!.find_item!.key = 'find_or_create_item';
        return 'searchOrCreates.find_item.key';
      },
    ],
  ])('refuses %s', (_what, breaker) => {
    const { fragment, errors } = refusals(breaker);
    expect(errors).toEqual([expect.stringContaining(fragment)]);
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
