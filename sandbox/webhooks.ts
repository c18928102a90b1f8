/**
 * Webhook subscriptions, the event catalogues and the delivery engine of both interfaces (clinic spec §4
 * "Webhooks" and §6; cashier spec §6, whose unshown details follow the clinic's).
 *
 * A delivery is a signed POST of `{id, event, tenant_id, occurred_at, api_version, data}`. Any 2xx within the
 * time-out is a success; anything else is retried 60 s later, doubling, at most 6 h apart, until 10 attempts.
 * 20 consecutive failed attempts on a subscription, or one 410 answer, switch it off. Delivery states: pending
 * (not yet attempted, or in flight), failed (the last attempt failed; a retry is scheduled), sent, dead (given
 * up, or its subscription is gone or switched off).
 */
import { createHash, createHmac } from 'node:crypto';
import RULES from './data/delivery-rules.json';
import SAMPLES from './data/event-samples.json';
import { ApiError, Checker, found, idParam, refuse, type Lang, byId } from './errors';
import { isoLocal, omit } from './ids';
import { send } from './sender';
import type { ApiClientRecord, Api, Delivery, Subscription } from './store/types';
import { newDelivery, newSubscription } from './store/records';
import { checkTargetUrl } from './urls';
import { S, body as bodySchema, type BodyOf } from './validate';
import type { WorldState } from './world';

/**
 * The sandbox's own signer, written from the specs (clinic "Signature", cashier "Webhooks") and not from the app's
 * code, so the end-to-end suites check the app's reading of the spec against an independent one: `sha256=` + hex
 * HMAC-SHA256 keyed with the secret as issued (`whsec_` included), over the timestamp, POST, the receiver URL's
 * path without query and the hex SHA-256 of the raw body, joined by line feeds.
 */
export const signDelivery = (secret: string, timestamp: string, receiverPath: string, body: string) => {
  const bodyDigest = createHash('sha256').update(body, 'utf8').digest('hex');
  const message = [timestamp, 'POST', receiverPath, bodyDigest].join('\n');
  return `sha256=${createHmac('sha256', secret).update(message).digest('hex')}`;
};

/*
 * The event catalogues (data/event-samples.json): who may receive each event (`abilities`; null: ping, sent by the
 * test endpoint to anyone), and its static sample, what a client sees for an account with no data yet: the
 * sandbox's own values, so a test can tell the interface's sample from the app's fallback.
 */
export interface EventInfo {
  ability: string | null;
  sample: Record<string, unknown>;
}

/** A sample happened with the latest change its object shows (a receipt's issue, a session's close). */
const occurredAt = (data: Record<string, unknown> = {}) => {
  const times = Object.entries(data)
    .filter(([k, v]) => k.endsWith('_at') && k !== 'starts_at' && k !== 'ends_at' && typeof v === 'string')
    .map(([, v]) => v as string);
  return times.reduce(
    (a, b) => (Date.parse(b) > Date.parse(a) ? b : a),
    times[0] ?? '2026-11-21T14:05:12+03:00',
  );
};

const catalogue = (api: Api): Record<string, EventInfo> => {
  const samples: Record<string, Record<string, unknown>> = SAMPLES[api];
  const abilities: Record<string, string | null> = SAMPLES.abilities[api];
  return Object.fromEntries(
    Object.entries(abilities).map(([event, ability]) => {
      const data = samples[event];
      const sample = {
        id: `${event}:sample`,
        event,
        tenant_id: 0,
        occurred_at: occurredAt(data),
        api_version: 'v1',
        data,
      };
      return [event, { ability, sample }];
    }),
  );
};

export const CLINIC_EVENTS = catalogue('clinic');
const CASHIER_EVENTS = catalogue('cashier');

export const catalogueOf = (api: Api) => (api === 'clinic' ? CLINIC_EVENTS : CASHIER_EVENTS);

const subscribableEvents = (api: Api) => Object.keys(catalogueOf(api)).filter((e) => e !== 'ping');

export const sampleFor = (api: Api, event: string, tenantId: number): Record<string, unknown> | null => {
  const info = catalogueOf(api)[event];
  return info ? { ...info.sample, tenant_id: tenantId } : null;
};

export const API_VERSION = 'v1';

/** The wait after the `attempts`-th failed attempt: 60 s, 120 s, 240 s … at most 6 h (data/delivery-rules.json). */
const retryDelayMs = (attempts: number): number => {
  const { first_delay_seconds: first, factor, max_delay_seconds: cap } = RULES.retry;
  return Math.min(first * factor ** Math.max(0, attempts - 1), cap) * 1000;
};

export const subscriptionView = (s: Subscription) => ({
  id: s.id,
  event: s.events.length === 1 ? s.events[0] : s.events[0] === '*' ? '*' : s.events.join(','),
  ...omit(s, 'id', 'api', 'tenantId', 'clientId', 'secret'),
  events: [...s.events],
});

/** The delivery record of the clinic spec (§2). */
export const deliveryView = (d: Delivery) =>
  omit(d, 'api', 'tenantId', 'created_at', 'next_attempt_at', 'body', 'subjects', 'log');

/** The delivery record as the sandbox's own views show it: with its interface and its next attempt. */
export const deliveryRecord = (d: Delivery) => ({
  ...deliveryView(d),
  interface: d.api,
  next_attempt_at: d.next_attempt_at,
});

/** What emit answers: the event's id and time, and the deliveries it queued. */
export type Emitted = ReturnType<WebhookEngine['emit']>;

/** WebhookWrite: the clinic takes `url` as an alias of target_url and `events` beside `event`; the cashier `{target_url, event}`. */
const CLINIC_WRITE = bodySchema({
  target_url: S.str(2000),
  url: S.str(2000),
  event: S.str(100),
  events: S.array(),
  description: S.str(500),
  status: S.oneOf(['active', 'disabled']),
});
const { status: _status, ...CLINIC_CREATE } = CLINIC_WRITE.body.properties;

export const webhookWrite = (api: Api, partial = false) => {
  const { target_url, event } = CLINIC_CREATE;
  return api === 'cashier'
    ? bodySchema({ target_url, event })
    : bodySchema(partial ? CLINIC_WRITE.body.properties : CLINIC_CREATE);
};

type WebhookWrite = BodyOf<typeof CLINIC_WRITE>;

export class WebhookEngine {
  private readonly timers = new Map<number, number>();
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly world: () => WorldState) {}

  private get w(): WorldState {
    return this.world();
  }

  private mine(api: Api, tenantId: number): Subscription[] {
    return this.w.store.subscriptions.filter((s) => s.api === api && s.tenantId === tenantId);
  }

  list(api: Api, tenantId: number): Subscription[] {
    return this.mine(api, tenantId).sort((a, b) => a.id - b.id);
  }

  find(api: Api, tenantId: number, rawId: string): Subscription {
    const id = idParam(rawId);
    return found(this.mine(api, tenantId).find((s) => s.id === id));
  }

  private newSecret(): string {
    return `whsec_${this.w.random.hex(40)}`;
  }

  /** Reads a WebhookWrite (see CLINIC_WRITE), and checks its events against the client's abilities and its URL. */
  private readWrite(api: Api, client: ApiClientRecord, body: unknown, lang: Lang, partial: boolean) {
    const clinic = api === 'clinic';
    const all = body as WebhookWrite;
    const b: WebhookWrite = clinic ? all : { target_url: all.target_url, event: all.event };
    const c = new Checker(lang);
    const target = b.target_url ?? b.url;
    if (!partial && target === undefined) c.add('target_url', 'required');
    const many = b.events;
    if (many?.some((e) => typeof e !== 'string')) c.add('events', 'string');
    let events: string[] | undefined;
    if (b.event !== undefined || many !== undefined) {
      events = [...new Set([...(b.event !== undefined ? [b.event] : []), ...((many ?? []) as string[])])];
      if (!events.length) c.add('events', 'required');
      if (events.includes('*') && events.length > 1) c.add('events', 'star_alone');
    } else if (!partial) {
      c.add('event', clinic ? 'event_needed' : 'required');
    }
    const { description, status } = b;
    c.done();
    const known = subscribableEvents(api);
    const unknown = events?.find((e) => e !== '*' && !known.includes(e));
    if (unknown !== undefined) throw new ApiError('event_unknown', { event: unknown });
    if (events) this.checkAbilities(api, client, events);
    if (target !== undefined) this.checkUrl(target);
    return { target, events, description, status };
  }

  /** Rule 2: the client must hold the read ability of each event it subscribes to. */
  private checkAbilities(api: Api, client: ApiClientRecord, events: string[]): void {
    const catalogue = catalogueOf(api);
    const list = events.includes('*') ? subscribableEvents(api) : events;
    for (const event of list) {
      const ability = catalogue[event]?.ability;
      if (ability && !client.abilities.includes(ability)) {
        throw new ApiError('insufficient_ability', { required_ability: ability, event }, { ability });
      }
    }
  }

  private checkUrl(target: string): void {
    const verdict = checkTargetUrl(target, this.w.config.allowLoopbackReceivers);
    if (!verdict.ok) throw new ApiError('url_not_allowed', { target_url: target, reason: verdict.reason });
  }

  create(api: Api, client: ApiClientRecord, body: unknown, lang: Lang): Subscription {
    const { target, events, description } = this.readWrite(api, client, body, lang, false);
    if (target === undefined || events === undefined) throw new ApiError('validation_failed');
    const limit = this.w.config.webhookLimit;
    if (this.mine(api, client.tenantId).length >= limit) {
      throw new ApiError('webhook_limit', { limit }, { limit });
    }
    const store = this.w.store;
    const at = isoLocal(this.w.clock.now());
    store.counters.subscription += 1;
    const sub = newSubscription({
      id: store.counters.subscription,
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

  /**
   * PUT /webhooks/{id}. A switched-off subscription takes a change of URL, events or description only together
   * with status active (409 webhook_disabled otherwise); status active clears its failure count.
   */
  update(sub: Subscription, client: ApiClientRecord, body: unknown, lang: Lang): Subscription {
    const { target, events, description, status } = this.readWrite(sub.api, client, body, lang, true);
    if ([target, events, description, status].every((v) => v === undefined)) {
      throw refuse(lang, 'body', 'no_changes');
    }
    const changesOther = target !== undefined || events !== undefined || description !== undefined;
    if (sub.status === 'disabled' && changesOther && status !== 'active') {
      throw new ApiError('webhook_disabled', { id: sub.id });
    }
    if (target !== undefined) sub.target_url = target;
    if (events) sub.events = events;
    if (description !== undefined) sub.description = description;
    if (status === 'active' && sub.status !== 'active') {
      sub.status = 'active';
      sub.disabled_reason = null;
      sub.consecutive_failures = 0;
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
    for (const d of this.w.store.deliveries) {
      if (d.subscription_id === subscriptionId && (d.status === 'pending' || d.status === 'failed')) {
        this.bury(d, code);
      }
    }
  }

  /** Gives a delivery up: no more attempts; `code` says why when no attempt has said so. */
  private bury(d: Delivery, code: string | null): void {
    this.cancelTimer(d.id);
    d.status = 'dead';
    d.next_attempt_at = null;
    d.last_error_code = d.last_error_code ?? code;
  }

  /**
   * An event happened: one delivery per active subscription whose client may receive it. `subjects`: the patient
   * ids the data concerns (a later erasure redacts the body).
   */
  emit(input: {
    api: Api;
    tenantId: number;
    event: string;
    data: Record<string, unknown>;
    subjects: string[];
  }) {
    const w = this.w;
    const stamp = this.stamp();
    const ability = catalogueOf(input.api)[input.event]?.ability ?? null;
    const subs = this.mine(input.api, input.tenantId).filter(
      (s) => s.status === 'active' && (s.events.includes('*') || s.events.includes(input.event)),
    );
    const deliveries: number[] = [];
    for (const sub of subs) {
      const client = w.store.clients.find((c) => c.id === sub.clientId);
      if (!client || client.clientRevoked || (ability && !client.abilities.includes(ability))) continue;
      const d = this.newDelivery(sub, input.event, stamp, input.data, input.subjects);
      deliveries.push(d.id);
      this.kick(d.id);
    }
    return { event: input.event, event_id: stamp.id, occurred_at: stamp.at, deliveries };
  }

  /** An event's id and time: the same for every subscription and every retry of it. */
  private stamp() {
    const now = this.w.clock.now();
    return { id: `evt_${this.w.random.ulid(now)}`, at: isoLocal(now) };
  }

  private newDelivery(
    sub: Subscription,
    event: string,
    stamp: { id: string; at: string },
    data: Record<string, unknown>,
    subjects: string[],
  ): Delivery {
    const store = this.w.store;
    const envelope = { id: stamp.id, event, tenant_id: sub.tenantId, occurred_at: stamp.at };
    store.counters.delivery += 1;
    const d = newDelivery({
      id: store.counters.delivery,
      api: sub.api,
      tenantId: sub.tenantId,
      subscription_id: sub.id,
      event,
      event_id: stamp.id,
      created_at: stamp.at,
      body: JSON.stringify({ ...envelope, api_version: API_VERSION, data }),
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
    const data = { subscription_id: sub.id, message };
    return this.attemptNow(this.newDelivery(sub, 'ping', this.stamp(), data, []));
  }

  /**
   * Re-sends one delivery now (the operation the clinic's error codes imply; sandbox-only endpoint). A delivery
   * that succeeded answers delivery_sent; one whose body was removed answers payload_redacted.
   */
  resend(deliveryId: number): Promise<Delivery> {
    const d = this.delivery(deliveryId);
    if (d.status === 'sent') throw new ApiError('delivery_sent', { id: d.id });
    if (d.body === null) throw new ApiError('payload_redacted', { id: d.id });
    const sub = byId(this.w.store.subscriptions, d.subscription_id);
    if (sub.status !== 'active') throw new ApiError('webhook_disabled', { id: sub.id });
    this.cancelTimer(d.id);
    d.status = 'pending';
    return this.attemptNow(d);
  }

  private async attemptNow(d: Delivery): Promise<Delivery> {
    await this.track(this.attempt(d.id));
    return d;
  }

  /** Deliveries of this event, subscription (by id or its text), status and interface, where each is given. */
  deliveries(f: { event?: string; subscriptionId?: number | string; status?: string; api?: string }) {
    return this.w.store.deliveries.filter(
      (d) =>
        (!f.event || d.event === f.event) &&
        (f.subscriptionId === undefined || String(d.subscription_id) === String(f.subscriptionId)) &&
        (!f.status || d.status === f.status) &&
        (!f.api || d.api === f.api),
    );
  }

  private delivery(id: number): Delivery {
    return byId(this.w.store.deliveries, id);
  }

  /** Removes a delivery's body, as retention or an erasure would. */
  redact(deliveryId: number): Delivery {
    const d = this.delivery(deliveryId);
    this.redactOne(d);
    return d;
  }

  redactSubject(patientId: string): void {
    for (const d of this.w.store.deliveries) if (d.subjects.includes(patientId)) this.redactOne(d);
  }

  private redactOne(d: Delivery): void {
    d.body = null;
    d.payload_redacted = true;
    if (d.status === 'pending' || d.status === 'failed') this.bury(d, null);
  }

  /** Waits until no delivery attempt is queued or in flight (retries scheduled on the clock excepted). */
  async settle(): Promise<void> {
    while (this.inFlight.size) await Promise.allSettled([...this.inFlight]);
  }

  stop(): void {
    for (const timer of this.timers.values()) this.w.clock.cancel(timer);
    this.timers.clear();
  }

  private track(p: Promise<void>): Promise<void> {
    const tracked = p.catch((err: unknown) =>
      this.w.log(`webhooks: attempt failed unexpectedly: ${String(err)}`),
    );
    this.inFlight.add(tracked);
    void tracked.finally(() => this.inFlight.delete(tracked));
    return tracked;
  }

  private kick(id: number): void {
    void this.track(new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.attempt(id)));
  }

  private cancelTimer(id: number): void {
    const timer = this.timers.get(id);
    if (timer !== undefined) this.w.clock.cancel(timer);
    this.timers.delete(id);
  }

  private async attempt(id: number): Promise<void> {
    const w = this.w;
    const d = w.store.deliveries.find((x) => x.id === id);
    if (!d || d.status === 'sent' || d.status === 'dead') return;
    this.timers.delete(id);
    const sub = w.store.subscriptions.find((s) => s.id === d.subscription_id);
    if (!sub) return this.bury(d, 'subscription_deleted');
    if (sub.status !== 'active') return this.bury(d, 'webhook_disabled');
    if (d.body === null) return this.bury(d, 'payload_redacted');

    const body = d.body;
    const timestamp = String(w.clock.nowSeconds());
    const target = sub.target_url;
    let path = '/';
    try {
      path = new URL(target).pathname;
    } catch {
      // An invalid URL fails in send() below and is recorded as such.
    }
    const headers = {
      'Content-Type': 'application/json',
      'User-Agent': 'partner-webhooks-sandbox/1.0',
      'X-Partner-Event': d.event,
      'X-Partner-Event-Id': d.event_id,
      'X-Partner-Delivery': String(d.id),
      'X-Partner-Timestamp': timestamp,
      'X-Partner-Signature': signDelivery(sub.secret, timestamp, path, body),
    };
    const at = isoLocal(w.clock.now());
    const result = await send(target, headers, body, w.config.deliveryTimeoutMs);
    d.attempts += 1;
    d.last_http = result.http;
    d.last_error_code = result.error_code;
    d.duration_ms = result.duration_ms;
    const outcome = `${result.http ?? result.error_code} (${result.duration_ms} ms)`;
    w.log(`delivery ${d.id} ${d.event} attempt ${d.attempts} → ${target}: ${outcome}`);
    d.log.push({ attempt: d.attempts, at, target_url: target, timestamp, ...result });
    // The subscription may have been deleted or switched off while the request was in flight.
    const current = w.store.subscriptions.find((s) => s.id === sub.id);
    if (result.error_code === null) {
      d.status = 'sent';
      d.delivered_at = isoLocal(w.clock.now());
      d.next_attempt_at = null;
      if (current) current.consecutive_failures = 0;
      return;
    }
    if (current && current.status === 'active') {
      current.consecutive_failures += 1;
      if (result.http === 410) this.switchOff(current, 'gone');
      else if (current.consecutive_failures >= RULES.switch_off_after_consecutive_failures)
        this.switchOff(current, 'failures');
    }
    if (!current || current.status !== 'active' || d.attempts >= RULES.retry.max_attempts)
      return this.bury(d, null);
    d.status = 'failed';
    const due = w.clock.now() + retryDelayMs(d.attempts);
    d.next_attempt_at = isoLocal(due);
    this.timers.set(
      d.id,
      w.clock.schedule(due, () => this.track(this.attempt(d.id))),
    );
  }
}
