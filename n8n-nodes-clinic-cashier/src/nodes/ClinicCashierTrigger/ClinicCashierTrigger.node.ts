import { makePerform } from '../../../../lib/hooks/delivery';
import { EVENTS } from '../../../../lib/hooks/events';
import { deliveryInputFields } from '../../../../lib/hooks/filters';
import { makePerformSubscribe, makePerformUnsubscribe } from '../../../../lib/hooks/subscription';
import type { HookEvent, SubscribeData } from '../../../../lib/hooks/types';
import { capital } from '../../../../lib/host';
import { languageOf, say } from '../../../../lib/i18n';
import { authDataFrom, CREDENTIAL, CREDENTIAL_TEST, testConnection } from '../../connection';
import { deliveryCredentials } from '../../delivery-credentials';
import { AppError, HaltedError } from '../../errors';
import { byName, hintOf, propertyOf } from '../../fields';
import { N8N } from '../../host';
import { ICON } from '../../icon';
import { connectionOf } from '../../in-process';
import type {
  ExecuteFunctions,
  HookFunctions,
  INodeType,
  NodeDescription,
  WebhookFunctions,
} from '../../n8n-types';
import { REDIS_CREDENTIAL } from '../../redis-store';
import { openSecret, sealSecret, type Sealed } from '../../sealed-secret';
import { inputDataOf, seam } from '../../seam';
import {
  checkReachable,
  holdsHere,
  noSharedStoreForDeliveries,
  storeOf,
  storeUnreachable,
} from '../../shared-state';
import { cacheOver } from '../../store';

const eventOf = (key: unknown): HookEvent => {
  const def = EVENTS.find((e) => e.key === key);
  if (!def) throw new Error(`Unknown event: ${String(key)}`);
  return def;
};

/**
 * What activation keeps in the workflow's static data, and nothing else ever writes there: n8n saves static data
 * whole from whichever process ends last, so a write during a delivery or an execution (on a worker, from the
 * snapshot it loaded) could put back an older subscription or none. The signing secret is kept sealed
 * (src/sealed-secret.ts); `secret` is only read, from a subscription an earlier version kept in clear.
 */
type KeptSubscription = Omit<SubscribeData, 'secret'> & {
  target_url: string;
  sealed?: Sealed;
  secret?: string;
};

interface Kept {
  subscription?: KeptSubscription;
}

// n8n makes the node's entry on first read without marking the static data changed, so reading never saves it.
const keptOf = (ctx: { getWorkflowStaticData(type: 'node'): Record<string, unknown> }) =>
  ctx.getWorkflowStaticData('node') as Kept;

/** The subscription as the core reads it, with its secret opened by this credential (undefined if it opens none). */
const subscribeDataOf = (sub: KeptSubscription, authData: Record<string, string>) => {
  const { sealed, target_url: _url, secret: clear, ...rest } = sub;
  const secret = sealed ? openSecret(sealed, authData, sub.api, sub.target_path) : clear;
  return secret === undefined ? undefined : { ...rest, secret };
};

/** A delivery for a subscription sealed under another credential: activation again subscribes with this one. */
const credentialChanged = (lang: ReturnType<typeof languageOf>) =>
  say(lang, {
    en: `Delivery refused: the connection of this trigger changed since the workflow was activated, and the signing secret kept then does not open with it. ${capital(N8N.words.reactivate.en)} to subscribe again with this connection.`,
    ar: `رُفض التسليم: تغيّر اتصال هذا المشغّل منذ تفعيل سير العمل، ولا يُفتح سر التوقيع المحفوظ حينها به. ${N8N.words.reactivate.ar} من جديد ليشترك مجددًا بهذا الاتصال.`,
  });

const inputsOf = (ctx: HookFunctions | WebhookFunctions, def: HookEvent) =>
  inputDataOf(
    Object.fromEntries(deliveryInputFields(def).map((f) => [f.key, ctx.getNodeParameter(f.key, 0, '')])),
  );

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
    // Version 2 is version 1 unchanged, for n8n's sake: to the body of every delivery to a version 1 webhook node,
    // n8n 2.41 applies a check written for the first version of its own Webhook node, which evaluates an expression
    // in a fresh isolate (parseRequestBody in n8n's webhook-helpers). Workflows keep the version they were built with.
    version: [1, 2],
    defaultVersion: 2,
    description:
      'Starts the workflow when the clinic or the cashier interface delivers an event (a booking, a payment, a receipt…).',
    subtitle: '={{$parameter["event"]}}',
    defaults: { name: 'Clinic & Cashier Trigger' },
    inputs: [],
    outputs: ['main'],
    credentials: [
      { name: CREDENTIAL, required: true, testedBy: CREDENTIAL_TEST },
      // Where copies of one event meet when n8n runs several processes (queue mode): src/shared-state.ts.
      { name: REDIS_CREDENTIAL, required: false },
    ],
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
      ...EVENTS.flatMap((def) => deliveryInputFields(def).map((f) => propertyOf(f, { event: [def.key] }))),
    ],
  };

  methods = { credentialTest: { [CREDENTIAL_TEST]: testConnection } };

  webhookMethods = {
    default: {
      /**
       * Whether the kept subscription is this node's and opens with its credential. False for a changed credential or
       * a secret kept in clear, so n8n subscribes again (the interface's subscription of the same address and event
       * is replaced, lib/hooks/subscription.ts). In queue mode without a shared store, activation stops here; the
       * editor's test webhook goes on, as its one delivery is received and run by the main alone.
       */
      async checkExists(this: HookFunctions): Promise<boolean> {
        const authData = await authDataFrom(this);
        const lang = languageOf({ authData });
        const store = await storeOf(this);
        if (!holdsHere(store) && this.getMode?.() !== 'manual') throw noSharedStoreForDeliveries(lang);
        if (store.reach === 'shared') await checkReachable(store, lang);
        const sub = keptOf(this).subscription;
        const def = eventOf(this.getNodeParameter('event'));
        return (
          !!sub &&
          !!sub.sealed &&
          sub.target_url === this.getNodeWebhookUrl('default') &&
          sub.event === def.event &&
          subscribeDataOf(sub, authData) !== undefined
        );
      },
      async create(this: HookFunctions): Promise<boolean> {
        const def = eventOf(this.getNodeParameter('event'));
        const targetUrl = this.getNodeWebhookUrl('default') ?? '';
        const authData = await authDataFrom(this);
        const { z, bundle } = seam({ authData, inputData: inputsOf(this, def), extra: { targetUrl } });
        const { secret, ...data } = await makePerformSubscribe(def)(z, bundle);
        const sealed = sealSecret(secret, authData, data.api, data.target_path);
        if (!sealed) throw new AppError(`No ${data.api} token to seal the signing secret with.`);
        keptOf(this).subscription = { ...data, sealed, target_url: targetUrl };
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
        } catch (err) {
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
   * nothing; otherwise the workflow gets the item a Zap would get. The event id is claimed in the node's store
   * (src/store.ts): copies arriving at once, at the main or a webhook processor, start one execution between them.
   * When the store cannot be reached the delivery is answered 503 and starts nothing, so the interface delivers it
   * again later. Static data is only read here.
   */
  async webhook(this: WebhookFunctions) {
    const def = eventOf(this.getNodeParameter('event'));
    const sub = keptOf(this).subscription;
    const credentials = deliveryCredentials(this);
    const authData = await authDataFrom(credentials);
    const lang = languageOf({ authData });
    const answer = (status: number, error: string, message: string) => {
      this.getResponseObject().status(status).json({ error, message });
      return { noWebhookResponse: true };
    };
    const subscribeData = sub && subscribeDataOf(sub, authData);
    if (sub?.sealed && !subscribeData) return answer(401, 'delivery_refused', credentialChanged(lang));
    const store = await storeOf(credentials);
    if (!holdsHere(store)) {
      this.logger.warn(
        `${def.label}: n8n runs in queue mode and this trigger has no Redis credential, so copies of one event reaching two n8n processes may both run. Add a Redis credential to the trigger.`,
      );
    }
    const cache = cacheOver(store, connectionOf(authData));
    const request = this.getRequestObject();
    // The signature covers the bytes as sent; n8n keeps them as rawBody for webhooks.
    const content = request.rawBody ? request.rawBody.toString('utf8') : JSON.stringify(request.body ?? {});
    const { z, bundle } = seam({
      authData,
      inputData: inputsOf(this, def),
      cache,
      extra: {
        subscribeData,
        rawRequest: { headers: request.headers, content, method: 'POST', querystring: '' },
      } as never,
    });
    let items: Array<Record<string, unknown>>;
    try {
      items = (await makePerform(def)(z, bundle as never)) as Array<Record<string, unknown>>;
    } catch (err) {
      // The core refuses a delivery with a HaltedError and nothing else of a delivery halts.
      if (err instanceof HaltedError) return answer(401, 'delivery_refused', err.message);
      throw err;
    }
    // The core went ahead without its claim (fail open, as on Zapier, which has already answered the sender). Here
    // the node still answers: refusing lets the interface deliver again once the store is back, doubling nothing.
    if (cache.failed()) {
      const err = storeUnreachable(lang, cache.failure());
      this.logger.warn(`${def.label}: ${err.message}`);
      return answer(503, 'store_unreachable', err.message);
    }
    if (!items.length) return {};
    return { workflowData: [items.map((json) => ({ json }))] };
  }

  /** The first step of the execution a delivery started: passes its items on, touching no static data. */
  async execute(this: ExecuteFunctions) {
    const items = this.getInputData();
    return [items.map((item, i) => ({ json: item.json, pairedItem: { item: i } }))];
  }
}
