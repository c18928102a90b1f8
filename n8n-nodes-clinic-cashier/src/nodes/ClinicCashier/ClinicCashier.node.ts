import { authDataFrom, CREDENTIAL, CREDENTIAL_TEST, testConnection } from '../../connection';
import { loaderOf, loadersOf } from '../../dropdowns';
import { ICON } from '../../icon';
import { inputDataFrom, propertyOf } from '../../fields';
import { lockKeyOf, memoryOf, underLock } from '../../in-process';
import type { ExecuteFunctions, NodeDescription, NodeProperty } from '../../n8n-types';
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

export { OPERATIONS };

const operationProperties = (): NodeProperty[] =>
  RESOURCES.map((r) => {
    const ops = OPERATIONS.filter((op) => op.resource === r.value);
    return {
      displayName: 'Operation',
      name: 'operation',
      type: 'options',
      noDataExpression: true,
      displayOptions: { show: { resource: [r.value] } },
      default: ops[0]!.operation,
      options: ops.map((op) => ({
        name: op.name,
        value: op.operation,
        description: op.description,
        action: op.label,
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

const description: NodeDescription = {
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
  properties: [
    {
      displayName: 'Resource',
      name: 'resource',
      type: 'options',
      noDataExpression: true,
      default: RESOURCES[0]!.value,
      options: RESOURCES,
    },
    ...operationProperties(),
    ...OPERATIONS.flatMap(inputProperties),
  ],
};

export class ClinicCashier {
  description = description;

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
        const inputData = inputDataFrom(fieldsOf(op), (key) => this.getNodeParameter(key, i, ''));
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
        if (!this.continueOnFail()) throw err;
        out.push({
          json: { error: err instanceof Error ? err.message : String(err) },
          pairedItem: { item: i },
        });
      }
    }
    return [out];
  }
}
