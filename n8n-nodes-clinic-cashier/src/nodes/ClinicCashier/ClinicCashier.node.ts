import { authDataFrom, CREDENTIAL, CREDENTIAL_TEST, testConnection } from '../../connection';
import { loaderOf, loadersOf } from '../../dropdowns';
import { ICON } from '../../icon';
import { byName, hintOf, inputDataFrom, propertyOf, sentenceOf } from '../../fields';
import { lockKeyOf, memoryOf, underLock } from '../../in-process';
import type { ExecuteFunctions, INodeType, NodeDescription, NodeProperty } from '../../n8n-types';
import {
  fieldsOf,
  fieldsOfDefinition,
  OPERATIONS,
  RESOURCES,
  runOperation,
  type Operation,
  type RunCreate,
} from '../../operations';
import { seam } from '../../seam';
import { inN8nError } from '../../wording';

export { OPERATIONS };

const operationProperties = (): NodeProperty[] =>
  RESOURCES.map((r) => {
    const ops = OPERATIONS.filter((op) => op.resource === r.value);
    const firstOperation = ops[0]!.operation;
    return {
      displayName: 'Operation',
      name: 'operation',
      type: 'options',
      noDataExpression: true,
      displayOptions: { show: { resource: [r.value] } },
      default: firstOperation,
      options: ops.map((op) => ({
        name: op.name,
        value: op.operation,
        description: hintOf(op.description),
        action: sentenceOf(op.label),
      })),
    };
  });

/** An operation's inputs, shown only under it; a dropdown lists through its definition's loader. */
const inputProperties = (op: Operation): NodeProperty[] =>
  op.parts.flatMap((def) =>
    fieldsOfDefinition(def).map((f) =>
      propertyOf(f, { resource: [op.resource], operation: [op.operation] }, loaderOf(def)),
    ),
  );

const firstResource = RESOURCES[0]!.value;

export class ClinicCashier implements INodeType {
  description: NodeDescription = {
    displayName: 'Clinic & Cashier',
    name: 'clinicCashier',
    icon: ICON,
    group: ['transform'],
    version: 1,
    description:
      'Books and cancels appointments, sends and cancels till orders, creates and updates catalogue items, and finds patients, appointments, invoices, items, orders, receipts, stock levels and Z-reports.',
    subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
    defaults: { name: 'Clinic & Cashier' },
    inputs: ['main'],
    outputs: ['main'],
    credentials: [{ name: CREDENTIAL, required: true, testedBy: CREDENTIAL_TEST }],
    // An AI agent in n8n may call it as a tool: each operation's description is the Zapier step's, written to say
    // what it does, when to use it and what it returns.
    usableAsTool: true,
    properties: [
      {
        displayName: 'Resource',
        name: 'resource',
        type: 'options',
        noDataExpression: true,
        default: firstResource,
        options: [...RESOURCES].sort(byName),
      },
      ...operationProperties(),
      ...OPERATIONS.flatMap(inputProperties),
    ],
  };

  methods = {
    credentialTest: { [CREDENTIAL_TEST]: testConnection },
    loadOptions: loadersOf([...new Set(OPERATIONS.flatMap((op) => op.parts))]),
  };

  /**
   * Each input item runs the operation once, as one Zap step would: an action gives one item, a search one per
   * object found (none when nothing is found), Find or Create the object found or made (src/operations.ts).
   */
  async execute(this: ExecuteFunctions) {
    const authData = await authDataFrom(this);
    const out: Array<{ json: Record<string, unknown>; pairedItem: { item: number } }> = [];
    const inputs = this.getInputData();
    for (let i = 0; i < inputs.length; i += 1) {
      const resource = this.getNodeParameter('resource', i);
      const operation = this.getNodeParameter('operation', i);
      const op = OPERATIONS.find((o) => o.resource === resource && o.operation === operation);
      try {
        if (!op) throw new Error(`Unknown operation: ${String(resource)} ${String(operation)}`);
        const inputData = inputDataFrom(
          fieldsOf(op),
          (key) => this.getNodeParameter(key, i, ''),
          this.getTimezone(),
        );
        const { z, bundle } = seam({
          authData,
          inputData,
          workflowId: this.getWorkflow().id,
          ...memoryOf(authData),
        });
        // Zapier's lock, where the app declares one, held in this n8n process (src/in-process.ts).
        const runCreate: RunCreate = ({ operation: { lock } }, perform) =>
          lock ? underLock(lockKeyOf(lock, inputData, authData), lock.timeout ?? 60, perform) : perform();
        const result = await runOperation(op, z, bundle, runCreate);
        for (const json of result) {
          out.push({ json: json as Record<string, unknown>, pairedItem: { item: i } });
        }
      } catch (err) {
        const shown = inN8nError(err);
        if (!this.continueOnFail()) throw shown;
        out.push({
          json: { error: shown instanceof Error ? shown.message : String(shown) },
          pairedItem: { item: i },
        });
      }
    }
    return [out];
  }
}
