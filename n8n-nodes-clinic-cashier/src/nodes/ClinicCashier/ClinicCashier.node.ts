import { authDataFrom, CREDENTIAL, CREDENTIAL_TEST, testConnection } from '../../connection';
import { loaderOf, loadersOf } from '../../dropdowns';
import { ICON } from '../../icon';
import { byName, hintOf, inputDataFrom, propertyOf, sentenceOf } from '../../fields';
import { CREATE } from '../../../../lib/keys';
import { languageOf } from '../../../../lib/i18n';
import { eventOfItem, runIdOf } from '../../event-scope';
import { connectionOf, lockKeyOf, underLock } from '../../in-process';
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
import { REDIS_CREDENTIAL } from '../../redis-store';
import { seam } from '../../seam';
import { ADD_REDIS, holdsHere, noSharedStoreForWrite, storeOf } from '../../shared-state';
import { cacheOver } from '../../store';
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

const hasRows = (rows: unknown, keys: string[]) =>
  Array.isArray(rows) &&
  rows.some((r) => !!r && typeof r === 'object' && keys.some((k) => (r as Record<string, unknown>)[k]));

/**
 * What a write cannot promise without a store every queue worker shares (src/shared-state.ts), in the user's words:
 * Create Item without SKU or barcode (only the step's claim keeps two runs from making two items), and Update Item
 * (only its lock keeps two runs from each writing back the variants it read). Other writes carry a reference the
 * interface keeps, and searches write nothing.
 */
const unsharedRefusal = (createKey: string | undefined, inputData: Record<string, unknown>) => {
  if (createKey === CREATE.createItem && !hasRows(inputData.variants, ['sku', 'barcode'])) {
    return {
      en: `Create Item without a SKU or Barcode on any variant has nothing the catalogue keeps unique, so two runs would make two items. Give a variant a SKU or Barcode (the step then finds the item it made before); to run it without either, ${ADD_REDIS.en}.`,
      ar: `لا يحمل Create Item دون SKU أو Barcode لأي صنف فرعي شيئًا يبقيه الكتالوج فريدًا، فيُنشئ تشغيلان صنفين. أعطِ صنفًا فرعيًا SKU أو Barcode (فتجد الخطوة الصنف الذي أنشأته من قبل)؛ ولتشغيلها دونهما ${ADD_REDIS.ar}.`,
    };
  }
  if (createKey === CREATE.updateItem) {
    return {
      en: `Update Item reads the item’s variants and writes them back, so two runs at once could each undo the other’s change; only a lock every worker sees keeps them apart. To run it, ${ADD_REDIS.en}.`,
      ar: `يقرأ Update Item الأصناف الفرعية للصنف ثم يكتبها، فقد يلغي كل من تشغيلين متزامنين تغيير الآخر؛ ولا يفصل بينهما إلا قفل تراه كل العمليات. لتشغيلها ${ADD_REDIS.ar}.`,
    };
  }
  return undefined;
};

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
    credentials: [
      { name: CREDENTIAL, required: true, testedBy: CREDENTIAL_TEST },
      // Where Create Item's claim and Update Item's lock hold across queue workers: src/shared-state.ts.
      { name: REDIS_CREDENTIAL, required: false },
    ],
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
    const store = await storeOf(this);
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
        // The create this operation may run: its own, or the one a Find or Create runs when nothing is found.
        const createKey = op.kind === 'search' ? undefined : op.parts[op.parts.length - 1]?.key;
        const refusal = holdsHere(store) ? undefined : unsharedRefusal(createKey, inputData);
        if (refusal) throw noSharedStoreForWrite(languageOf({ authData }), refusal);
        const { z, bundle } = seam({
          authData,
          inputData,
          workflowId: runIdOf(this.getWorkflow().id, createKey, this.getNode().name, () =>
            eventOfItem(this, i),
          ),
          cache: cacheOver(store, connectionOf(authData)),
        });
        // Zapier's lock, where the app declares one, also held in this n8n process (src/in-process.ts); across
        // processes the core's own claims and locks hold through the store.
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
