import { defineTrigger } from 'zapier-platform-core';
import { makePerform } from '../lib/hooks/delivery';
import { EVENTS } from '../lib/hooks/events';
import { deliveryInputFields } from '../lib/hooks/filters';
import { itemOutputFields, staticSample } from '../lib/hooks/item';
import { makePerformList } from '../lib/hooks/samples';
import { makePerformSubscribe, makePerformUnsubscribe } from '../lib/hooks/subscription';
import { transferRangeFields } from '../lib/hooks/transfer';
import type { HookEvent } from '../lib/hooks/types';

/** One REST-hook trigger from a row of the event table. */
export const hookTrigger = (def: HookEvent) =>
  defineTrigger({
    key: def.key,
    noun: def.noun,
    display: { label: def.label, description: def.description },
    operation: {
      type: 'hook',
      inputFields: [
        ...deliveryInputFields(def),
        ...(def.transfer?.range ? transferRangeFields(def.transfer.range.by) : []),
      ],
      perform: makePerform(def),
      performList: makePerformList(def),
      performSubscribe: makePerformSubscribe(def),
      performUnsubscribe: makePerformUnsubscribe(def),
      sample: staticSample(def),
      // z.cursor keeps a transfer's place between its pages (lib/hooks/transfer.ts).
      ...(def.transfer ? { canPaginate: true } : {}),
      outputFields: itemOutputFields(def),
    },
  });

/** The instant triggers of CONTRACT §2 and §8, one per row of the event table. */
export const hookTriggers = EVENTS.map(hookTrigger);
