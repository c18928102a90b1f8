/*
 * The example workflows docs/n8n.md and docs/n8n-assistants.md link and docs/n8n-maintaining.md describes (n8n-nodes-clinic-cashier/examples/*.json) use
 * only what exists: the package's node types as a package install names them (`<package>.<node>`, the action node as
 * an AI tool `<package>.<node>Tool`), with parameters the node shows for the chosen resource and operation (every
 * required one given, a fixed choice among its options), and the n8n nodes listed below. Credentials are referenced
 * by name only, so an import matches the reader's own and no id or secret is committed. Whether n8n runs them (the
 * refusal's words on the form, the skipped reminder) is the walk-through docs/n8n.md describes, against the sandbox;
 * the AI receptionist is run by the real-n8n lane's MCP check (scripts/n8n-lane/mcp-check.ts). What this file holds
 * is how they are wired.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { traverseNodeParameters, type FromAIArgument } from 'n8n-workflow';
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
  '@n8n/n8n-nodes-langchain.mcpTrigger',
]);

const PACKAGE = (JSON.parse(readFileSync(join(EXAMPLES, '..', 'package.json'), 'utf8')) as { name: string })
  .name;

/**
 * The action node as n8n offers it to AI agents and its MCP Server Trigger (`usableAsTool`): `<name>Tool`, with the
 * tool description n8n adds (Set Automatically, or the one given).
 */
const asTool = (d: NodeDescription): NodeDescription => ({
  ...d,
  name: `${d.name}Tool`,
  properties: [
    {
      displayName: 'Tool Description',
      name: 'descriptionType',
      type: 'options',
      default: 'auto',
      options: [
        { name: 'Set Automatically', value: 'auto' },
        { name: 'Set Manually', value: 'manual' },
      ],
    },
    {
      displayName: 'Description',
      name: 'toolDescription',
      type: 'string',
      default: d.description,
      displayOptions: { show: { descriptionType: ['manual'] } },
    },
    ...d.properties,
  ] as NodeProperty[],
});

const action = new ClinicCashier().description;

/** The package's nodes by the type a package install gives them (`n8n-nodes-clinic-cashier.<name>`). */
const PACKAGE_NODES = new Map<string, NodeDescription>(
  [
    action,
    asTool(action),
    new ClinicCashierTrigger().description,
    new ClinicCashierStartingSoonTrigger().description,
  ].map((d) => [`${PACKAGE}.${d.name}`, d]),
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
  connections: Record<string, Record<string, Array<Array<{ node: string; type: string }>>>>;
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

test('the examples the docs link are there', () => {
  expect(files.sort()).toEqual(['ai-receptionist.json', 'book-from-form.json', 'reminder.json']);
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
    for (const [from, byType] of Object.entries(workflow.connections)) {
      expect(names.has(from)).toBe(true);
      for (const [type, outputs] of Object.entries(byType)) {
        for (const to of outputs.flat()) {
          expect([from, to.node, to.type, names.has(to.node)]).toEqual([from, to.node, type, true]);
        }
      }
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
      expect(node.typeVersion).toBe(description.defaultVersion ?? description.version);
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
  (workflow.connections[from]?.main?.[index] ?? []).map((c) =>
    workflow.nodes.find((n) => n.name === c.node)!,
  );
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

describe('ai-receptionist.json serves the clinic’s operations to an AI assistant', () => {
  const workflow = example('ai-receptionist.json');
  const trigger = workflow.nodes.find((n) => n.type === '@n8n/n8n-nodes-langchain.mcpTrigger')!;
  const tools = workflow.nodes.filter((n) => n !== trigger);
  const tool = (name: string) => named(workflow, name);
  /** The values a tool's parameters take from the assistant (`$fromAI`), by parameter. */
  const fromAi = (node: WorkflowNode) =>
    Object.fromEntries(
      Object.entries(node.parameters).flatMap(([name, value]) => {
        const found: FromAIArgument[] = [];
        traverseNodeParameters(value as never, found);
        return found.map((a) => [name, a] as const);
      }),
    );

  test('an MCP Server Trigger that refuses a client without the clinic’s token, and hands its tools the request', () => {
    // 2.1 hands its tools the request's headers, one of the ways the action node knows an assistant called it.
    expect(trigger.typeVersion).toBeGreaterThanOrEqual(2.1);
    expect(trigger.parameters.authentication).toBe('bearerAuth');
    expect(trigger.credentials).toEqual({ httpBearerAuth: { name: expect.any(String) } });
    expect(trigger.parameters.instructions).toMatch(/only what they asked for/);
  });

  test('four tools, each the package’s action node as a tool, connected to the trigger, with its own description', () => {
    expect(tools.map((n) => [n.name, n.parameters.resource, n.parameters.operation])).toEqual([
      ['Find Patient', 'patient', 'find'],
      ['Find Appointment', 'appointment', 'find'],
      ['Book Appointment', 'appointment', 'book'],
      ['Cancel Appointment', 'appointment', 'cancel'],
    ]);
    for (const n of tools) {
      expect(n.type).toBe(`${PACKAGE}.clinicCashierTool`);
      expect(workflow.connections[n.name]).toEqual({
        ai_tool: [[{ node: trigger.name, type: 'ai_tool', index: 0 }]],
      });
      expect(n.parameters.descriptionType).toBe('manual');
    }
  });

  test('what the person gives is filled by the assistant, each under its own name, saying what to ask for', () => {
    expect(Object.fromEntries(tools.map((n) => [n.name, Object.keys(fromAi(n))]))).toEqual({
      'Find Patient': ['phone'],
      'Find Appointment': ['patient_id', 'from', 'to'],
      'Book Appointment': ['starts_at', 'patient_phone', 'patient_name'],
      'Cancel Appointment': ['appointment_id'],
    });
    for (const n of tools) {
      for (const [name, arg] of Object.entries(fromAi(n))) {
        expect([n.name, arg.key, arg.type]).toEqual([n.name, name, 'string']);
        expect([n.name, name, /Ask|[Nn]ever guess|the last day/.test(arg.description ?? '')]).toEqual([
          n.name,
          name,
          true,
        ]);
      }
    }
  });

  test('the clinic’s own choices stay fixed; Book derives its reference from the conversation', () => {
    expect(tool('Book Appointment').parameters).toMatchObject({
      branch_id: expect.any(String),
      appointment_type_id: expect.any(String),
    });
    expect(tool('Book Appointment').parameters).not.toHaveProperty('external_ref');
    expect(tool('Cancel Appointment').parameters.reason).toBe('patient_request');
  });

  test('nothing more of the patient than the conversation needs: found by the person’s own phone, appointments by their file', () => {
    expect(tool('Find Patient').parameters).not.toHaveProperty('file_no');
    expect(tool('Find Patient').parameters).not.toHaveProperty('patient_id');
    // Without a patient Find Appointment lists every patient's appointments of the range: never for an assistant.
    expect(fromAi(tool('Find Appointment')).patient_id?.description).toMatch(/Never guess/);
  });

  test('Cancel asks for the appointment the person chose, never the first one found', () => {
    expect(fromAi(tool('Cancel Appointment')).appointment_id?.description).toMatch(
      /the person chose.*never pick one for them/,
    );
    expect(tool('Cancel Appointment').parameters.toolDescription).toMatch(/cancel only after they confirm/);
  });
});
