import type { Bundle, ZObject } from 'zapier-platform-core';
import { bookAppointment } from '../../../../creates/book_appointment';
import { findPatient } from '../../../../searches/find_patient';
import { authDataFrom, CREDENTIAL, CREDENTIAL_TEST, testConnection } from '../../connection';
import { propertyOf, type ZapierField } from '../../fields';
import type { ExecuteFunctions, NodeDescription, NodeProperty } from '../../n8n-types';
import { inputDataOf, seam } from '../../seam';

/** A Zapier action or search as an n8n resource and operation; its inputs, checks and perform are the app's. */
interface Operation {
  resource: string;
  operation: string;
  name: string;
  zapier: {
    display: { label?: string; description?: string };
    operation: { inputFields?: unknown; perform?: unknown };
  };
}

export const OPERATIONS: Operation[] = [
  { resource: 'appointment', operation: 'book', name: 'Book', zapier: bookAppointment },
  { resource: 'patient', operation: 'find', name: 'Find', zapier: findPatient },
];

const RESOURCES = [
  { name: 'Appointment', value: 'appointment' },
  { name: 'Patient', value: 'patient' },
];

const fieldsOf = (op: Operation): ZapierField[] =>
  ((op.zapier.operation.inputFields ?? []) as unknown[]).filter(
    (f): f is ZapierField => !!f && typeof f === 'object' && 'key' in f,
  );

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
        description: op.zapier.display.description,
        action: op.zapier.display.label,
      })),
    };
  });

const description: NodeDescription = {
  displayName: 'Clinic & Cashier',
  name: 'clinicCashier',
  group: ['transform'],
  version: 1,
  description: 'Books appointments and finds patients in the clinic; more actions of the Zapier app follow.',
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
    ...OPERATIONS.flatMap((op) =>
      fieldsOf(op).map((f) => propertyOf(f, { resource: [op.resource], operation: [op.operation] })),
    ),
  ],
};

export class ClinicCashier {
  description = description;

  methods = { credentialTest: { [CREDENTIAL_TEST]: testConnection } };

  /**
   * Each input item runs the operation once, as one Zap step would: an action gives one item, a search one per
   * object found (none when nothing is found).
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
        const params = Object.fromEntries(
          fieldsOf(op).map((f) => [f.key, this.getNodeParameter(f.key, i, '')]),
        );
        const { z, bundle } = seam({
          authData,
          inputData: inputDataOf(params),
          workflowId: this.getWorkflow().id,
        });
        const perform = op.zapier.operation.perform as (z: ZObject, b: Bundle) => Promise<unknown>;
        const result = await perform(z, bundle);
        for (const json of Array.isArray(result) ? result : [result]) {
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
