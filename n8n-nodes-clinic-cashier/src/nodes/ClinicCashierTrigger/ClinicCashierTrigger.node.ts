import { makePerform } from '../../../../lib/hooks/delivery';
import { EVENTS } from '../../../../lib/hooks/events';
import { filterInputFields } from '../../../../lib/hooks/filters';
import { makePerformSubscribe, makePerformUnsubscribe } from '../../../../lib/hooks/subscription';
import type { HookEvent, SubscribeData } from '../../../../lib/hooks/types';
import { authDataFrom, CREDENTIAL, CREDENTIAL_TEST, testConnection } from '../../connection';
import { HaltedError } from '../../errors';
import { byName, hintOf, propertyOf, type ZapierField } from '../../fields';
import { ICON } from '../../icon';
import type {
  ExecuteFunctions,
  HookFunctions,
  INodeType,
  NodeDescription,
  WebhookFunctions,
} from '../../n8n-types';
import { inputDataOf, rememberAll, rememberedSince, seam, type Remembered } from '../../seam';
import { inN8nError, inN8nErrors } from '../../wording';

/**
 * Where an item carries, beside its json, the event ids its delivery remembered, from the webhook phase to the
 * execution (see `execute`). Not in `json`: the workflow gets the item the Zap gets.
 */
export const REMEMBERED = 'clinicCashierRemembered';

/** The inputs of a row of the event table: its filters, then what its extensions ask (Include Patient Details). */
const fieldsOf = (def: HookEvent): ZapierField[] => [
  ...filterInputFields(def.filters),
  ...(def.extensions ?? []).flatMap((x): ZapierField[] => [...(x.inputFields ?? [])]),
];

const eventOf = (key: unknown): HookEvent => {
  const def = EVENTS.find((e) => e.key === key);
  if (!def) throw new Error(`Unknown event: ${String(key)}`);
  return def;
};

/** What the node keeps in the workflow's static data between activation, deliveries and deactivation. */
interface Kept {
  subscription?: SubscribeData & { target_url: string };
  delivered?: Remembered;
}

const keptOf = (ctx: { getWorkflowStaticData(type: 'node'): Record<string, unknown> }) =>
  ctx.getWorkflowStaticData('node') as Kept;

const inputsOf = (ctx: HookFunctions | WebhookFunctions, def: HookEvent) =>
  inputDataOf(Object.fromEntries(fieldsOf(def).map((f) => [f.key, ctx.getNodeParameter(f.key, 0, '')])));

const firstEvent = EVENTS[0]!.key;

/**
 * One row of the Zapier app's event table as an n8n trigger: subscribing, unsubscribing and each delivery run the
 * app's own functions (lib/hooks/subscription.ts, lib/hooks/delivery.ts) through the seam.
 */
export class ClinicCashierTrigger implements INodeType {
  description: NodeDescription = {
    displayName: 'Clinic & Cashier Trigger',
    name: 'clinicCashierTrigger',
    icon: ICON,
    group: ['trigger'],
    version: 1,
    description:
      'Starts the workflow when the clinic or the cashier interface delivers an event (a booking, a payment, a receipt…).',
    subtitle: '={{$parameter["event"]}}',
    defaults: { name: 'Clinic & Cashier Trigger' },
    inputs: [],
    outputs: ['main'],
    credentials: [{ name: CREDENTIAL, required: true, testedBy: CREDENTIAL_TEST }],
    webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' }],
    properties: [
      {
        displayName: 'Event',
        name: 'event',
        type: 'options',
        required: true,
        noDataExpression: true,
        default: firstEvent,
        options: EVENTS.map((e) => ({
          name: e.label,
          value: e.key,
          description: hintOf(e.description),
        })).sort(byName),
      },
      ...EVENTS.flatMap((def) => fieldsOf(def).map((f) => propertyOf(f, { event: [def.key] }))),
    ],
  };

  methods = { credentialTest: { [CREDENTIAL_TEST]: testConnection } };

  webhookMethods = {
    default: {
      async checkExists(this: HookFunctions): Promise<boolean> {
        const sub = keptOf(this).subscription;
        const def = eventOf(this.getNodeParameter('event'));
        return !!sub && sub.target_url === this.getNodeWebhookUrl('default') && sub.event === def.event;
      },
      async create(this: HookFunctions): Promise<boolean> {
        const def = eventOf(this.getNodeParameter('event'));
        const targetUrl = this.getNodeWebhookUrl('default') ?? '';
        const { z, bundle } = seam({
          authData: await authDataFrom(this),
          inputData: inputsOf(this, def),
          extra: { targetUrl },
        });
        const data = await inN8nErrors(() => makePerformSubscribe(def)(z, bundle));
        keptOf(this).subscription = { ...data, target_url: targetUrl };
        return true;
      },
      async delete(this: HookFunctions): Promise<boolean> {
        const kept = keptOf(this);
        const def = eventOf(this.getNodeParameter('event'));
        const { z, bundle } = seam({
          authData: await authDataFrom(this),
          extra: { subscribeData: kept.subscription } as never,
        });
        try {
          await makePerformUnsubscribe(def)(z, bundle);
        } catch (error) {
          const err = inN8nError(error);
          // n8n treats false as "not removed"; the reason goes to its log, as the interface keeps delivering.
          this.logger.warn(
            `Could not remove the ${def.event} webhook ${String(kept.subscription?.id)}: ${err instanceof Error ? err.message : String(err)}`,
          );
          return false;
        }
        delete kept.subscription;
        return true;
      },
    },
  };

  /**
   * A delivery, checked as a Zap's is. A refused one (bad signature, stale, not this subscription's) is answered
   * 401 and starts nothing; a repeated event id, or an event this trigger is not about, is answered 200 and starts
   * nothing; otherwise the workflow gets the item a Zap would get.
   */
  async webhook(this: WebhookFunctions) {
    const def = eventOf(this.getNodeParameter('event'));
    const kept = keptOf(this);
    const request = this.getRequestObject();
    // The signature covers the bytes as sent; n8n keeps them as rawBody for webhooks.
    const content = request.rawBody ? request.rawBody.toString('utf8') : JSON.stringify(request.body ?? {});
    const memory: Remembered = { ...(kept.delivered ?? {}) };
    const { z, bundle } = seam({
      authData: await authDataFrom(this),
      inputData: inputsOf(this, def),
      memory,
      extra: {
        subscribeData: kept.subscription,
        rawRequest: { headers: request.headers, content, method: 'POST', querystring: '' },
      } as never,
    });
    let items: Array<Record<string, unknown>>;
    try {
      items = (await makePerform(def)(z, bundle as never)) as Array<Record<string, unknown>>;
    } catch (error) {
      const err = inN8nError(error);
      // The core refuses a delivery with a HaltedError and nothing else of a delivery halts.
      if (err instanceof HaltedError) {
        this.getResponseObject().status(401).json({ error: 'delivery_refused', message: err.message });
        return { noWebhookResponse: true };
      }
      throw err;
    }
    // Assigned anew, so n8n sees the static data changed. n8n saves it only when no execution starts (a repeat, an
    // event filtered out): starting one rebuilds the workflow over the same static data, which clears the change
    // mark before the webhook's save. So the new ids also travel with the items, and `execute` keeps them.
    const remembered = rememberedSince(kept.delivered ?? {}, memory);
    kept.delivered = memory;
    if (!items.length) return {};
    return { workflowData: [items.map((json) => ({ json, [REMEMBERED]: remembered }))] };
  }

  /**
   * The first step of the execution a delivery started: passes its items on, and keeps the event ids their
   * delivery remembered in the static data of the execution, which n8n saves when the execution ends. A
   * redelivery arriving before then may run again (as two copies arriving in the same instant may).
   */
  async execute(this: ExecuteFunctions) {
    const items = this.getInputData();
    const kept = keptOf(this);
    const remembered: Remembered = {};
    for (const item of items) Object.assign(remembered, item[REMEMBERED] ?? {});
    if (Object.keys(remembered).length) {
      const memory: Remembered = { ...(kept.delivered ?? {}) };
      rememberAll(memory, remembered);
      // Assigned anew, so n8n sees the change and saves the static data with the execution.
      kept.delivered = memory;
    }
    return [items.map((item, i) => ({ json: item.json, pairedItem: { item: i } }))];
  }
}
