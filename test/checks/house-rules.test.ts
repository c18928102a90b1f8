import { HOUSE_RULES } from '../../scripts/checks/house-rules';
import { placeholderLinks } from '../../scripts/checks/reading';
import { staticFields } from '../../scripts/checks/definition';
import { authField, describeRules, input, op, sample, type Breaker } from './breaking';

/*
 * The house's own rules (scripts/checks/house-rules.ts, APP-*): what this app promises its Zap builders beyond
 * Zapier's checks.
 */

const ENFORCED = [
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
  'APP-SEARCH-DROPDOWN',
  'APP-CHOICES-DEPENDS',
  'APP-FIND-OR-CREATE',
  'APP-THROTTLE',
];

/** For each rule: ways to break the definition, each returning a fragment the rule's problems must name. */
const BREAKERS: Record<string, Record<string, Breaker>> = {
  'APP-THROTTLE': {
    'an action without a throttle': (d) => {
      delete (op(d, 'creates', 'create_order').operation as { throttle?: unknown }).throttle;
      return 'creates.create_order: no throttle';
    },
    'a throttle of one action alone': (d) => {
      (op(d, 'searches', 'find_patient').operation as { throttle: { scope: string[] } }).throttle.scope = [
        'action',
      ];
      return "searches.find_patient: the throttle's scope must be the connection";
    },
    'a limit above the interfaces’ half minute': (d) => {
      (op(d, 'creates', 'book_appointment').operation as { throttle: { limit: number } }).throttle.limit =
        120;
      return 'creates.book_appointment: the throttle must allow at most 60';
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
  'APP-SEARCH-DROPDOWN': {
    'a search-powered field without dropdown': (d) => {
      delete input(d, 'creates', 'book_appointment', 'patient_id').choices;
      return 'creates.book_appointment.inputFields.patient_id';
    },
    'a search-powered field whose choices have no perform': (d) => {
      const field = input(d, 'creates', 'update_item', 'item_id');
      delete field.dynamic;
      field.choices = { perform: undefined };
      return 'creates.update_item.inputFields.item_id';
    },
  },
  'APP-CHOICES-DEPENDS': {
    'a dropdown whose choices read the Branch, without dependsOn': (d) => {
      delete input(d, 'creates', 'book_appointment', 'practitioner_id').dependsOn;
      return 'creates.book_appointment.inputFields.practitioner_id: its choices read branch_id but it has no dependsOn';
    },
    'a line-item dropdown whose choices read the Item, without dependsOn': (d) => {
      delete input(d, 'creates', 'update_item', 'variants[]variant_id').dependsOn;
      return 'creates.update_item.inputFields.variants[]variant_id: its choices read item_id';
    },
    'dependsOn naming no input of the operation': (d) => {
      input(d, 'creates', 'book_appointment', 'practitioner_id').dependsOn = ['clinic_branch_id'];
      return 'dependsOn clinic_branch_id is no earlier input of the operation';
    },
    'dependsOn naming a later input': (d) => {
      const field = input(d, 'creates', 'book_appointment', 'appointment_type_id');
      field.dependsOn = ['practitioner_id'];
      field.meta = { choices_read: 'practitioner_id' };
      return 'dependsOn practitioner_id is no earlier input';
    },
    'choices reading an input the operation lacks': (d) => {
      input(d, 'creates', 'book_appointment', 'appointment_type_id').meta = {
        choices_read: 'branch_id doctor_id',
      };
      return 'its choices read doctor_id, no other input of the operation';
    },
    'dependsOn an input its choices do not read': (d) => {
      input(d, 'creates', 'book_appointment', 'practitioner_id').dependsOn = ['branch_id', 'starts_at'];
      return 'dependsOn starts_at, which its choices do not read';
    },
    'a trigger filter whose choices read the Branch filter, without dependsOn': (d) => {
      input(d, 'triggers', 'appointment_created', 'practitioner_id').meta = { choices_read: 'branch_id' };
      return 'triggers.appointment_created.inputFields.practitioner_id: its choices read branch_id but it has no dependsOn';
    },
  },
  'APP-FIND-OR-CREATE': {
    'a pair whose key is not its search': (d) => {
      d.searchOrCreates!.find_item!.search = 'find_order';
      return 'must equal';
    },
    'a pair of a hidden action': (d) => {
      op(d, 'creates', 'create_item').display.hidden = true;
      return 'searchOrCreates.find_item: pairs a hidden search or action';
    },
  },
};

describeRules(HOUSE_RULES, ENFORCED, BREAKERS);

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
