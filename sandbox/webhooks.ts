/**
 * Webhook subscriptions and deliveries of both interfaces (clinic spec §4 "Webhooks" and §6; cashier spec §6,
 * whose unshown details follow the clinic's), as sandbox/README.md "Webhooks" tells.
 */
import { createHash, createHmac } from 'node:crypto';
import RULES from './data/delivery-rules.json';
import EVENTS from './data/event-samples.json';
import { ApiError, Checker, refuse, requireAbility, type Lang, byId } from './errors';
import type { SandboxClock } from './clock';
import { isoLocal, omit, type Random } from './ids';
import { send } from './sender';
import type { Store } from './store';
import type { ApiClientRecord, Api, Delivery, Subscription } from './store/types';
import { newDelivery, newSubscription } from './store/records';
import { refusedReason } from './urls';
import { S, body as bodySchema, type BodyOf } from './validate';

/** Written from the specs, not from the app's code: the end-to-end suites check the app against it. */
export const signDelivery = (secret: string, timestamp: string, receiverPath: string, body: string) => {
  const bodyDigest = createHash('sha256').update(body, 'utf8').digest('hex');
  const message = [timestamp, 'POST', receiverPath, bodyDigest].join('\n');
  return `sha256=${createHmac('sha256', secret).update(message).digest('hex')}`;
};

export const API_VERSION = 'v1';

/** Each event's ability (null: ping, which the test endpoint sends to anyone) and its static sample. */
export const CATALOGUES: Record<Api, Record<string, { ability: string | null; sample: object }>> = EVENTS;

export const CLINIC_EVENTS = CATALOGUES.clinic;

export const sampleFor = (api: Api, event: string, tenantId: number): Record<string, unknown> | null => {
  const info = CATALOGUES[api][event];
  return info ? { ...info.sample, tenant_id: tenantId } : null;
};

export const subscriptionView = (s: Subscription) => ({
  id: s.id,
  event: s.events.join(','),
  ...omit(s, 'id', 'api', 'tenantId', 'clientId', 'secret'),
  events: [...s.events],
});

/** The delivery record of the clinic spec (§2). */
export const deliveryView = (d: Delivery) =>
  omit(d, 'api', 'tenantId', 'created_at', 'next_attempt_at', 'body', 'subjects', 'log');

/** WebhookWrite: the clinic takes `url` as an alias of target_url and `events` beside `event`; the cashier `{target_url, event}`. */
const WRITE = {
  target_url: S.str(2000),
  url: S.str(2000),
  event: S.str(100),
  events: S.array(),
  description: S.str(500),
};
const CLINIC_UPDATE = bodySchema({ ...WRITE, status: S.oneOf(['active', 'disabled']) });

export const webhookWrite = (api: Api, partial = false) => {
  if (api === 'cashier') return bodySchema({ target_url: WRITE.target_url, event: WRITE.event });
  return partial ? CLINIC_UPDATE : bodySchema(WRITE);
};

type WebhookWrite = BodyOf<typeof CLINIC_UPDATE>;

/** What the engine runs over: the sandbox's state (world.ts), all but the engine. */
interface EngineState {
  clock: SandboxClock;
  random: Random;
  store: Store;
  config: { allowLoopbackReceivers: boolean; webhookLimit: number; deliveryTimeoutMs: number };
  log: (line: string) => void;
}

export class WebhookEngine {
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(private readonly w: EngineState) {}

  /** An account's subscriptions, oldest first. */
  list(api: Api, tenantId: number): Subscription[] {
    return this.w.store.subscriptions.filter((s) => s.api === api && s.tenantId === tenantId);
  }

  private newSecret(): string {
    return `whsec_${this.w.random.hex(40)}`;
  }

  /** Reads a WebhookWrite; its events must be known and readable by the client (clinic spec §6 rule 2). */
  private readWrite(api: Api, client: ApiClientRecord, body: unknown, lang: Lang, partial: boolean) {
    const all = body as WebhookWrite;
    const b: WebhookWrite = api === 'clinic' ? all : { target_url: all.target_url, event: all.event };
    const c = new Checker(lang);
    const target = b.target_url ?? b.url;
    if (!partial && target === undefined) c.add('target_url', 'required');
    if (b.events?.some((e) => typeof e !== 'string')) c.add('events', 'string');
    const given = b.event !== undefined || b.events !== undefined;
    const events = given ? [...new Set([b.event ?? [], (b.events ?? []) as string[]].flat())] : undefined;
    if (events?.length === 0) c.add('events', 'required');
    if (events?.includes('*') && events.length > 1) c.add('events', 'star_alone');
    if (!given && !partial) c.add('event', api === 'clinic' ? 'event_needed' : 'required');
    c.done();
    const known = Object.keys(CATALOGUES[api]).filter((e) => e !== 'ping');
    const unknown = events?.find((e) => e !== '*' && !known.includes(e));
    if (unknown !== undefined) throw new ApiError('event_unknown', { event: unknown });
    for (const event of events?.includes('*') ? known : (events ?? []))
      requireAbility(client, CATALOGUES[api][event]?.ability, { event });
    const reason = target === undefined ? null : refusedReason(target, this.w.config.allowLoopbackReceivers);
    if (reason) throw new ApiError('url_not_allowed', { target_url: target, reason });
    return { target, events, description: b.description, status: b.status };
  }

  create(api: Api, client: ApiClientRecord, body: unknown, lang: Lang): Subscription {
    const { target, events, description } = this.readWrite(api, client, body, lang, false);
    if (target === undefined || events === undefined) throw new ApiError('validation_failed');
    const limit = this.w.config.webhookLimit;
    if (this.list(api, client.tenantId).length >= limit)
      throw new ApiError('webhook_limit', { limit }, { limit });
    const store = this.w.store;
    const at = isoLocal(this.w.clock.now());
    const sub = newSubscription({
      id: (store.counters.subscription += 1),
      api,
      tenantId: client.tenantId,
      clientId: client.id,
      events,
      target_url: target,
      description,
      secret: this.newSecret(),
      created_at: at,
      updated_at: at,
    });
    store.subscriptions.push(sub);
    return sub;
  }

  /** PUT /webhooks/{id}: a switched-off subscription takes other changes only with status active. */
  update(sub: Subscription, client: ApiClientRecord, body: unknown, lang: Lang): Subscription {
    const { target, events, description, status } = this.readWrite(sub.api, client, body, lang, true);
    const changes = [target, events, description].some((v) => v !== undefined);
    if (!changes && status === undefined) throw refuse(lang, 'body', 'no_changes');
    if (changes && sub.status === 'disabled' && status !== 'active') {
      throw new ApiError('webhook_disabled', { id: sub.id });
    }
    if (target !== undefined) sub.target_url = target;
    if (events) sub.events = events;
    if (description !== undefined) sub.description = description;
    if (status === 'active' && sub.status !== 'active') {
      Object.assign(sub, { status: 'active', disabled_reason: null, consecutive_failures: 0 });
    } else if (status === 'disabled' && sub.status !== 'disabled') {
      this.switchOff(sub, 'client');
    }
    sub.updated_at = isoLocal(this.w.clock.now());
    return sub;
  }

  remove(sub: Subscription): void {
    const store = this.w.store;
    store.subscriptions = store.subscriptions.filter((s) => s !== sub);
    this.buryDeliveriesOf(sub.id, 'subscription_deleted');
  }

  /** The old secret stops working at once: every later attempt, retries included, signs with the new one. */
  rotate(sub: Subscription): Subscription {
    sub.secret = this.newSecret();
    sub.updated_at = isoLocal(this.w.clock.now());
    return sub;
  }

  private switchOff(sub: Subscription, reason: NonNullable<Subscription['disabled_reason']>): void {
    sub.status = 'disabled';
    sub.disabled_reason = reason;
    sub.updated_at = isoLocal(this.w.clock.now());
    this.w.log(`webhooks: subscription ${sub.id} switched off (${reason})`);
    this.buryDeliveriesOf(sub.id, 'webhook_disabled');
  }

  private buryDeliveriesOf(subscriptionId: number, code: string): void {
    for (const d of this.w.store.deliveries) if (d.subscription_id === subscriptionId) this.bury(d, code);
  }

  /** Gives a pending or failed delivery up; `code` says why when no attempt has said so. */
  private bury(d: Delivery, code: string | null): void {
    if (d.status !== 'pending' && d.status !== 'failed') return;
    d.status = 'dead';
    d.next_attempt_at = null;
    d.last_error_code = d.last_error_code ?? code;
  }

  /** One delivery per active subscription whose client may receive the event; `subjects`: patient ids it names. */
  emit(input: { api: Api; tenantId: number; event: string; data: object; subjects: string[] }) {
    const event = this.newEvent(input.tenantId, input.event, input.data);
    const ability = CATALOGUES[input.api][input.event]?.ability ?? null;
    const subs = this.list(input.api, input.tenantId).filter(
      (s) => s.status === 'active' && (s.events.includes('*') || s.events.includes(input.event)),
    );
    const deliveries: number[] = [];
    for (const sub of subs) {
      const client = this.w.store.clients.find((c) => c.id === sub.clientId);
      if (!client || client.clientRevoked || (ability && !client.abilities.includes(ability))) continue;
      const d = this.newDelivery(sub, event, input.subjects);
      deliveries.push(d.id);
      void this.kick(d);
    }
    return { event: input.event, event_id: event.id, occurred_at: event.occurred_at, deliveries };
  }

  /** An event's body: the same for every subscription and every retry of it. */
  private newEvent(tenantId: number, event: string, data: object) {
    const now = this.w.clock.now();
    const id = `evt_${this.w.random.ulid(now)}`;
    return { id, event, tenant_id: tenantId, occurred_at: isoLocal(now), api_version: API_VERSION, data };
  }

  private newDelivery(sub: Subscription, event: ReturnType<WebhookEngine['newEvent']>, subjects: string[]) {
    const store = this.w.store;
    const d = newDelivery({
      id: (store.counters.delivery += 1),
      api: sub.api,
      tenantId: sub.tenantId,
      subscription_id: sub.id,
      event: event.event,
      event_id: event.id,
      created_at: event.occurred_at,
      body: JSON.stringify(event),
      subjects,
    });
    store.deliveries.push(d);
    return d;
  }

  /** POST /webhooks/{id}/test: a ping, attempted at once; the answer is the delivery after that attempt. */
  test(sub: Subscription, lang: Lang): Promise<Delivery> {
    if (sub.status !== 'active') throw new ApiError('webhook_disabled', { id: sub.id });
    const message =
      lang === 'ar'
        ? 'تسليم تجريبي من واجهة الشركاء (بيئة الاختبار).'
        : 'Test delivery from the partner interface (sandbox).';
    const ping = this.newEvent(sub.tenantId, 'ping', { subscription_id: sub.id, message });
    return this.kick(this.newDelivery(sub, ping, []));
  }

  /** The sandbox-only re-send: the clinic's error codes imply one and its spec shows none. */
  resend(deliveryId: number): Promise<Delivery> {
    const d = byId(this.w.store.deliveries, deliveryId);
    if (d.status === 'sent') throw new ApiError('delivery_sent', { id: d.id });
    if (d.body === null) throw new ApiError('payload_redacted', { id: d.id });
    const sub = byId(this.w.store.subscriptions, d.subscription_id);
    if (sub.status !== 'active') throw new ApiError('webhook_disabled', { id: sub.id });
    d.status = 'pending';
    return this.kick(d);
  }

  /** Deliveries of this event, subscription and status, where each is given. */
  deliveries(f: { event?: string; subscriptionId?: number; status?: string }) {
    return this.w.store.deliveries.filter(
      (d) =>
        (!f.event || d.event === f.event) &&
        (f.subscriptionId === undefined || d.subscription_id === f.subscriptionId) &&
        (!f.status || d.status === f.status),
    );
  }

  /** Removes a delivery's body, as retention or an erasure would. */
  redact(deliveryId: number): Delivery {
    const d = byId(this.w.store.deliveries, deliveryId);
    d.body = null;
    d.payload_redacted = true;
    this.bury(d, null);
    return d;
  }

  redactSubject(patientId: string): void {
    for (const d of this.w.store.deliveries) if (d.subjects.includes(patientId)) this.redact(d.id);
  }

  /** Waits until no delivery attempt is queued or in flight (retries scheduled on the clock excepted). */
  async settle(): Promise<void> {
    while (this.inFlight.size) await Promise.allSettled([...this.inFlight]);
  }

  /** Attempts the delivery on the event loop's next turn; settle() waits for it. */
  private kick(d: Delivery): Promise<Delivery> {
    const attempt = new Promise((resolve) => setImmediate(resolve))
      .then(() => this.attempt(d))
      .catch((err: unknown) => this.w.log(`webhooks: attempt failed unexpectedly: ${String(err)}`));
    this.inFlight.add(attempt);
    void attempt.finally(() => this.inFlight.delete(attempt));
    return attempt.then(() => d);
  }

  private async attempt(d: Delivery): Promise<void> {
    const w = this.w;
    if (d.status === 'sent' || d.status === 'dead') return;
    const sub = w.store.subscriptions.find((s) => s.id === d.subscription_id);
    if (!sub) return this.bury(d, 'subscription_deleted');
    if (sub.status !== 'active') return this.bury(d, 'webhook_disabled');
    if (d.body === null) return this.bury(d, 'payload_redacted');

    const url = new URL(sub.target_url); // subscribing checked that it parses
    const timestamp = String(w.clock.nowSeconds());
    const headers = {
      'Content-Type': 'application/json',
      'User-Agent': 'partner-webhooks-sandbox/1.0',
      'X-Partner-Event': d.event,
      'X-Partner-Event-Id': d.event_id,
      'X-Partner-Delivery': String(d.id),
      'X-Partner-Timestamp': timestamp,
      'X-Partner-Signature': signDelivery(sub.secret, timestamp, url.pathname, d.body),
    };
    const at = isoLocal(w.clock.now());
    const result = await send(url, headers, d.body, w.config.deliveryTimeoutMs);
    d.attempts += 1;
    d.last_http = result.http;
    d.last_error_code = result.error_code;
    d.duration_ms = result.duration_ms;
    const outcome = `${result.http ?? result.error_code} (${result.duration_ms} ms)`;
    w.log(`delivery ${d.id} ${d.event} attempt ${d.attempts} → ${sub.target_url}: ${outcome}`);
    d.log.push({ attempt: d.attempts, at, target_url: sub.target_url, timestamp, ...result });
    // The subscription may have been deleted or switched off while the request was in flight.
    const current = w.store.subscriptions.includes(sub) ? sub : undefined;
    if (result.error_code === null) {
      d.status = 'sent';
      d.delivered_at = isoLocal(w.clock.now());
      d.next_attempt_at = null;
      if (current) current.consecutive_failures = 0;
      return;
    }
    if (current?.status === 'active') {
      current.consecutive_failures += 1;
      if (result.http === 410) this.switchOff(current, 'gone');
      else if (current.consecutive_failures >= RULES.switch_off_after_consecutive_failures)
        this.switchOff(current, 'failures');
    }
    if (current?.status !== 'active' || d.attempts >= RULES.retry.max_attempts) return this.bury(d, null);
    d.status = 'failed';
    const { first_delay_seconds: first, factor, max_delay_seconds: cap } = RULES.retry;
    const due = w.clock.now() + Math.min(first * factor ** (d.attempts - 1), cap) * 1000;
    d.next_attempt_at = isoLocal(due);
    // A resend in between makes this retry moot; a delivery given up ends in attempt().
    const attempts = d.attempts;
    w.clock.schedule(due, () => d.attempts === attempts && this.kick(d));
  }
}
