/*
 * The example workflows docs/n8n.md imports and docs/n8n-maintaining.md describes
 * (n8n-nodes-clinic-cashier/examples/*.json) use only what exists: the
 * package's node types as a package install names them (`<package>.<node>`), with parameters the node shows for the chosen
 * resource and operation (every required one given, a fixed choice among its options), and the n8n base nodes
 * listed below. Credentials are referenced by name only, so an import matches the reader's own and no id or secret
 * is committed. Whether n8n runs them (the refusal's words on the form, the skipped reminder) is the walk-through docs/n8n.md
 * describes, against the sandbox; what this file holds is how they are wired.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ClinicCashier } from '../../n8n-nodes-clinic-cashier/src/nodes/ClinicCashier/ClinicCashier.node';
import { ClinicCashierStartingSoonTrigger } from '../../n8n-nodes-clinic-cashier/src/nodes/ClinicCashierStartingSoonTrigger/ClinicCashierStartingSoonTrigger.node';
import { ClinicCashierTrigger } from '../../n8n-nodes-clinic-cashier/src/nodes/ClinicCashierTrigger/ClinicCashierTrigger.node';
import { CREDENTIAL } from '../../n8n-nodes-clinic-cashier/src/connection';
import type { NodeDescription, NodeProperty } from '../../n8n-nodes-clinic-cashier/src/n8n-types';

const EXAMPLES = join(__dirname, '..', '..', 'n8n-nodes-clinic-cashier', 'examples');

/** n8n's own nodes the examples are built with; their parameters are n8n's, checked by running the examples. */
const BASE_NODES = new Set([
  'n8n-nodes-base.formTrigger',
  'n8n-nodes-base.form',
  'n8n-nodes-base.if',
  'n8n-nodes-base.set',
  'n8n-nodes-base.httpRequest',
]);

const PACKAGE = (JSON.parse(readFileSync(join(EXAMPLES, '..', 'package.json'), 'utf8')) as { name: string })
  .name;

/** The package's nodes by the type a package install gives them (`n8n-nodes-clinic-cashier.<name>`). */
const PACKAGE_NODES = new Map<string, NodeDescription>(
  [new ClinicCashier(), new ClinicCashierTrigger(), new ClinicCashierStartingSoonTrigger()].map((n) => [
    `${PACKAGE}.${n.description.name}`,
    n.description,
  ]),
);

interface WorkflowNode {
  name: string;
  type: string;
  typeVersion: number;
  onError?: string;
  parameters: Record<string, unknown>;
  credentials?: Record<string, Record<string, unknown>>;
}
interface Workflow {
  name: string;
  nodes: WorkflowNode[];
  connections: Record<string, { main: Array<Array<{ node: string }>> }>;
}

const files = readdirSync(EXAMPLES).filter((f) => f.endsWith('.json'));
const examples = files.map(
  (f) => [f, JSON.parse(readFileSync(join(EXAMPLES, f), 'utf8')) as Workflow] as const,
);

/** The properties n8n shows for these parameters: displayOptions.show matched against the chosen values. */
const shownFor = (description: NodeDescription, params: Record<string, unknown>): NodeProperty[] =>
  description.properties.filter((p) =>
    Object.entries(p.displayOptions?.show ?? {}).every(([key, values]) => values.includes(params[key])),
  );

const isExpression = (v: unknown) => typeof v === 'string' && v.startsWith('=');

test('the two examples the docs link are there', () => {
  expect(files.sort()).toEqual(['book-from-form.json', 'reminder.json']);
});

describe.each(examples)('%s', (_file, workflow) => {
  test('every node is one of the package’s or a listed n8n base node', () => {
    for (const node of workflow.nodes) {
      expect([node.type, PACKAGE_NODES.has(node.type) || BASE_NODES.has(node.type)]).toEqual([
        node.type,
        true,
      ]);
    }
  });

  test('connections join nodes of the workflow', () => {
    const names = new Set(workflow.nodes.map((n) => n.name));
    for (const [from, { main }] of Object.entries(workflow.connections)) {
      expect(names.has(from)).toBe(true);
      for (const to of main.flat())
        expect([from, to.node, names.has(to.node)]).toEqual([from, to.node, true]);
    }
  });

  test('credentials are referenced by name only, the package’s nodes by the package’s credential', () => {
    for (const node of workflow.nodes) {
      for (const ref of Object.values(node.credentials ?? {})) expect(Object.keys(ref)).toEqual(['name']);
      if (PACKAGE_NODES.has(node.type)) expect(Object.keys(node.credentials ?? {})).toEqual([CREDENTIAL]);
    }
  });

  const own = workflow.nodes.filter((n) => PACKAGE_NODES.has(n.type));
  test.each(own.map((n) => [n.name, n] as const))(
    '%s: parameters the node shows, every required one given, fixed choices among its options',
    (_name, node) => {
      const description = PACKAGE_NODES.get(node.type)!;
      expect(node.typeVersion).toBe(description.version);
      const shown = shownFor(description, node.parameters);
      // n8n adds Poll Times to a polling node itself.
      const known = new Set([...shown.map((p) => p.name), ...(description.polling ? ['pollTimes'] : [])]);
      expect(Object.keys(node.parameters).filter((k) => !known.has(k))).toEqual([]);
      const missing = shown.filter((p) => p.required && !(p.name in node.parameters)).map((p) => p.name);
      expect(missing).toEqual([]);
      for (const p of shown) {
        const value = node.parameters[p.name];
        if (p.type !== 'options' || value === undefined || isExpression(value) || !Array.isArray(p.options))
          continue;
        if (p.typeOptions?.loadOptionsMethod) continue;
        expect([p.name, (p.options as Array<{ value: unknown }>).some((o) => o.value === value)]).toEqual([
          p.name,
          true,
        ]);
      }
    },
  );
});

/** The nodes that `from`'s output `index` leads to. */
const next = (workflow: Workflow, from: string, index: number): WorkflowNode[] =>
  (workflow.connections[from]?.main[index] ?? []).map((c) => workflow.nodes.find((n) => n.name === c.node)!);
const named = (workflow: Workflow, name: string) => workflow.nodes.find((n) => n.name === name)!;
const example = (file: string) => examples.find(([f]) => f === file)![1];

// What the person at the other end sees: n8n's own nodes, whose run the n8n page walks through against the sandbox.
describe('book-from-form.json answers the person', () => {
  const workflow = example('book-from-form.json');
  const book = workflow.nodes.find((n) => n.type.endsWith('.clinicCashier'))!;

  test('a refused booking goes to the node’s error output, not to a failed execution', () => {
    expect(book.onError).toBe('continueErrorOutput');
  });

  test('a booking shows a thank-you with the booked time in words, English and Arabic', () => {
    const [ending] = next(workflow, book.name, 0);
    expect(ending).toMatchObject({ type: 'n8n-nodes-base.form', parameters: { operation: 'completion' } });
    expect(ending!.parameters.completionTitle).toMatch(/thank you/i);
    expect(ending!.parameters.completionMessage).toEqual(expect.stringContaining('$json.starts_at_text_en'));
    expect(ending!.parameters.completionMessage).toEqual(expect.stringContaining('$json.starts_at_text_ar'));
  });

  test('a refusal shows the app’s own words (the error item’s `error`)', () => {
    const [ending] = next(workflow, book.name, 1);
    expect(ending).toMatchObject({ type: 'n8n-nodes-base.form', parameters: { operation: 'completion' } });
    expect(ending!.parameters.completionMessage).toBe('={{ $json.error }}');
  });
});

describe('reminder.json', () => {
  const workflow = example('reminder.json');

  test('sends when the patient has a phone, and says why when it skips one', () => {
    const check = named(workflow, 'Has a phone');
    expect(check.type).toBe('n8n-nodes-base.if');
    expect(JSON.stringify(check.parameters)).toContain('$json.patient?.phone');
    expect(next(workflow, check.name, 0).map((n) => n.type)).toEqual(['n8n-nodes-base.httpRequest']);
    const [skipped] = next(workflow, check.name, 1);
    expect(skipped!.type).toBe('n8n-nodes-base.set');
    expect(JSON.stringify(skipped!.parameters)).toMatch(/No reminder for the appointment/);
  });
});
