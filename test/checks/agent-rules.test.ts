import { AGENT_RULES, agentProblems, GROUP_ABOVE } from '../../scripts/checks/agent-rules';
import {
  cloneDefinition,
  loadDefinition,
  staticFields,
  type AppDefinition,
} from '../../scripts/checks/definition';
import { App } from '../helpers';

/*
 * The definitions an AI agent reads (Zapier MCP, the Zapier SDK): every action and search passes the AGENT-* rules,
 * and each rule fails on a copy broken the way a new operation could forget it.
 */

const definition = loadDefinition(App);

const broken = (change: (d: AppDefinition) => void) => {
  const copy = cloneDefinition(definition);
  change(copy);
  return agentProblems(copy);
};
const fieldOf = (d: AppDefinition, kind: 'creates' | 'searches', key: string, field: string) =>
  staticFields(d[kind][key]!.operation.inputFields).find((f) => f.key === field)!;

describe('definitions an agent can use safely (AGENT-*)', () => {
  it.each(AGENT_RULES.map((r) => [r.id, r.title]))('%s: %s', (id) => {
    expect(agentProblems(definition)[id]).toEqual([]);
  });

  it('AGENT-DESCRIPTION fails on a description that does not say when to use the step or what it returns', () => {
    expect(
      broken((d) => {
        d.searches.find_order!.display.description = 'Finds an order sent to a branch till by its id.';
      })['AGENT-DESCRIPTION'],
    ).toEqual([
      'searches.find_order: its description does not say when to use it ("Use it …"), nor what it returns ("Returns …")',
    ]);
  });

  it('AGENT-INPUT-TYPE fails on an input without a type, a child of line items too', () => {
    expect(
      broken((d) => {
        delete fieldOf(d, 'creates', 'book_appointment', 'note').type;
        delete staticFields(fieldOf(d, 'creates', 'create_order', 'lines').children).find(
          (c) => c.key === 'sku',
        )!.type;
      })['AGENT-INPUT-TYPE'],
    ).toEqual([
      'creates.book_appointment.inputFields.note: no type',
      'creates.create_order.inputFields.lines[]sku: no type',
    ]);
  });

  it('AGENT-INPUT-EXAMPLE fails on an input with neither a placeholder, an "e.g." nor choices', () => {
    expect(
      broken((d) => {
        const name = fieldOf(d, 'creates', 'create_order', 'customer_name');
        name.helpText = 'Shown to the cashier with the order.';
        delete name.placeholder;
      })['AGENT-INPUT-EXAMPLE'],
    ).toEqual([
      'creates.create_order.inputFields.customer_name: no example (a placeholder, or "e.g." in its help text)',
    ]);
  });

  it(`AGENT-GROUPS fails on an action of more than ${GROUP_ABOVE} inputs without groups, or an input outside them`, () => {
    expect(
      broken((d) => {
        delete (d.creates.book_appointment!.operation as { inputFieldGroups?: unknown }).inputFieldGroups;
        delete (fieldOf(d, 'creates', 'create_order', 'prepaid') as { group?: string }).group;
      })['AGENT-GROUPS'],
    ).toEqual([
      'creates.book_appointment: 9 inputs and no inputFieldGroups',
      'creates.create_order.inputFields.prepaid: in no group of the action',
    ]);
  });
});
