/**
 * The shape of a row of the event table and of what its rows name: sample sources, Transfer sources and extensions.
 * Types only, so every module of the hook engine can name them without importing another module's code.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import type { Query } from '../http';
import type { InputField } from '../inputs';
import type { Api } from '../partner-apis';
import type { TRIGGER } from '../keys';
import type { Field, OutputField, Resource } from '../resources/define';
import type { Filter } from './filters';
import type { Order } from './paging';

/** What a Zap sees of one object of an event: a delivery's, a sample's or one moved by Transfer. */
export type Item = Record<string, unknown>;

/** What performSubscribe stores and Zapier hands back as `bundle.subscribeData`. */
export interface SubscribeData {
  id: number | string;
  secret: string;
  /** The path of the Zap's hook URL: the signature covers it, and perform does not get the URL itself. */
  target_path: string;
  event: string;
  api: string;
}

export type HookBundle = Omit<Bundle, 'subscribeData'> & { subscribeData?: Partial<SubscribeData> };

/** Where a trigger's sample comes from in the Zap editor (performList). */
export type SampleSource =
  /** clinic: GET /webhooks/events/{event}/recent, its meta.sample when empty */
  | { kind: 'recent' }
  /** cashier: a list endpoint that holds real objects of the event */
  | { kind: 'list'; path: string; query: Record<string, string | number | boolean> }
  /**
   * cashier: the newest objects of a cursor list that has no "newest first" (GET /receipts, oldest first): its
   * pages read to the end, within SETTINGS.sampleCursorPages; `at` is the object's time the event carries
   */
  | {
      kind: 'cursor';
      path: string;
      query: Record<string, string | number | boolean>;
      keeps?: (object: Item) => boolean;
      at: string;
    }
  /** cashier: the account's sample from GET /webhooks/events */
  | { kind: 'catalogue' };

/**
 * Where a trigger's past objects come from, for Zapier Transfer (performList with `bundle.meta.isBulkRead`): a list
 * of the interface, read oldest first, one page a call, each object made into the item a live delivery would make.
 */
export interface TransferSource {
  path: string;
  /** Fixed query: the status a status trigger implies, the kind of receipt, low levels only. */
  query?: Query;
  /**
   * `since_id`: the receipts cursor, oldest first in the order receipts reached the server (cashier spec §4 rule 4).
   * Otherwise `?page=1,2…` of a list the interface sorts by the order given, oldest first (appointments by start,
   * invoices by issue time, each then by id; customers by id; stock levels by branch and variant: the sandbox's
   * order, which the specs do not show), paged by that key (lib/hooks/paging.ts).
   */
  paging: 'since_id' | Order;
  /** The object's time an item gives as `occurred_at`: the first of these fields the object has. */
  at: readonly string[];
  /** Objects of the list the trigger does not fire for (New Receipt: the list also holds credit notes). */
  keeps?: (data: Item) => boolean;
  /**
   * The list's date-range parameters that Transfer From and Transfer Before fill (dates, from inclusive), and the
   * date of an object they compare, in words for their help text.
   */
  range?: { from: string; to: string; by: string };
  /**
   * Objects that can move behind the place while the transfer runs (an appointment rescheduled earlier): after the
   * list's end, its lists of these `statuses` (from the day before the transfer began) are read again for the ones
   * `changed` since it began, `created` before it, and not yet handed on.
   */
  recheck?: { statuses: readonly string[]; changed: string; created: string };
}

/** How an item is being made: from a delivery or a sample, or from a list for Transfer. */
export interface Making {
  /** The object comes from a Transfer list, which shows it as it is now, without the change that fired. */
  transfer: boolean;
}

/**
 * When the item's event happened, whether its object came from a list already narrowed by `listQuery`, and whether
 * the call is asked for again when it fails (a sample, a Transfer page); absent, the item is a live event's, which
 * Zapier never brings again (lib/host.ts).
 */
export interface Occasion {
  occurredAt?: string;
  listed: boolean;
  replayable?: boolean;
}

/**
 * What a row adds to its items beyond the resource's presentation of the event's data (the patient, appointment
 * changes, the consent check, the keys Transfer cannot tell), with the inputs that control it. Every key an item has
 * beyond the resource's fields, `event_id` and `occurred_at` comes from an extension the row lists, so a row and
 * lib/hooks/item.ts say what its items hold.
 */
export interface HookExtension {
  inputFields?: readonly InputField[];
  outputFields?: OutputField[];
  /** What the static sample gains beyond what `fromData` makes of the row's sample data. */
  sample?: Item;
  /**
   * Keys read from the event's own data, which the resource's whitelist does not keep (`changes`): added while the
   * item is made, before the trigger's filters, which may read them. `item` is the item so far.
   */
  fromData?(data: Item, item: Item, making: Making): Item;
  /**
   * The item with what needs a request (the patient, the consent check), or undefined when the Zap must not fire
   * for it; run after the filters, so a filtered-out item costs no request. The item is made for the call, so it
   * may be completed in place. When what it adds cannot be known (a read that failed) it throws where the call comes
   * again (a replayable occasion, or a host that delivers a failed event again: the delivery is then not remembered),
   * and otherwise says so in the item (the patient `unavailable`); a consent check that cannot be made always throws.
   */
  apply?(z: ZObject, bundle: Bundle, item: Item, at: Occasion): Promise<Item | undefined>;
  /**
   * A page of Transfer at once: what `apply` adds to each item, in as few requests as it can, failing the call when a
   * read fails (Zapier asks for the page again, its place not moved) rather than leaving fields empty. Without it,
   * `apply` runs per item.
   */
  applyPage?(z: ZObject, bundle: Bundle, items: Item[]): Promise<Array<Item | undefined>>;
  /**
   * Refuses inputs the extension cannot honour, before the Zap subscribes, fires or lists anything: a value it
   * cannot read must stop the Zap, never loosen what it fires on.
   */
  check?(z: ZObject, bundle: Bundle): void;
  /** Extra query of the list a trigger's samples (and Transfer's pages) come from. */
  listQuery?(input: Record<string, unknown>): Query;
  /** The largest Transfer page that keeps the extension's requests within the interface's limits. */
  transferPageSize?(input: Record<string, unknown>): number | undefined;
}

/** One row of the event table: one instant trigger (CONTRACT §2, §8). */
export interface HookEvent {
  key: (typeof TRIGGER)[keyof typeof TRIGGER];
  event: string;
  api: Api;
  // The event table mixes resources of different shapes; each row's own resource types its items.
  resource: Resource<Record<string, Field>>;
  noun: string;
  label: string;
  description: string;
  filters: readonly Filter[];
  sample: SampleSource;
  /** Raw data for the static sample when the resource's own sample does not show the event (e.g. changes). */
  sampleData?: Item;
  /** Only deliveries whose data passes fire (e.g. an appointment.updated whose status became "arrived"). */
  when?: (rawData: Item) => boolean;
  /** What the trigger adds to its items beyond the event's data, in this order. */
  extensions?: readonly HookExtension[];
  /** Where its past objects come from, for Zapier Transfer; absent for events the interfaces cannot list. */
  transfer?: TransferSource;
}
