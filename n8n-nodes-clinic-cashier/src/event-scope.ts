/**
 * What an action's write is for, when a delivery of this package's trigger started the execution: the event. n8n
 * may run one event twice (two copies before the store is set up, a Retry after a worker died), and each run gives
 * the action the same event, so a reference derived from it meets the first run's at the interface, which answers
 * the booking it already made. A later event asking for the same booking is a new booking (a re-booking after a
 * cancellation), which a reference derived from the workflow and the inputs alone would answer with the old one.
 */
import { CREATE } from '../../lib/keys';
import type { ExecuteFunctions } from './n8n-types';

/** The trigger's node type name; n8n prefixes it with the package's name or `CUSTOM`. */
const TRIGGER_TYPE = 'clinicCashierTrigger';

/**
 * The writes whose derived reference follows the event: Book Appointment (`external_ref` when none is given). Create
 * Order's reference is a required input the user maps, and Create Item's memory stays per workflow and inputs, as a
 * Zap's, so the same item asked for by two events is still made once.
 */
export const EVENT_SCOPED: ReadonlySet<string> = new Set([CREATE.bookAppointment]);

const idOf = (json: Record<string, unknown> | undefined) =>
  typeof json?.event_id === 'string' && json.event_id !== '' ? json.event_id : undefined;

/**
 * The event id of input item `i`: the trigger's item it was paired from (n8n's item lineage, through any steps in
 * between), else the input item's own `event_id`; undefined when no trigger of this package comes before the node.
 */
export const eventOfItem = (ctx: ExecuteFunctions, i: number): string | undefined => {
  const triggers = ctx
    .getParentNodes(ctx.getNode().name ?? '')
    .filter((n) => n.type.split('.').pop() === TRIGGER_TYPE);
  if (!triggers.length) return undefined;
  for (const trigger of triggers) {
    try {
      const id = idOf(ctx.getWorkflowDataProxy(i).$(trigger.name).item?.json);
      if (id) return id;
    } catch {
      // No lineage back to this trigger (an item made by a Code node, a merge of several): try the next clue.
    }
  }
  return idOf(ctx.getInputData()[i]?.json);
};

/**
 * The run identity the core reads as the Zap (`bundle.meta.zap.id`) for an item of an operation: the workflow, and
 * for an event-scoped write the event and this node too (two Book Appointment nodes of one workflow book apart).
 */
export const runIdOf = (
  workflowId: string | undefined,
  createKey: string | undefined,
  nodeName: string | undefined,
  eventOf: () => string | undefined,
): string | undefined => {
  const eventId = createKey && EVENT_SCOPED.has(createKey) ? eventOf() : undefined;
  return eventId ? JSON.stringify([workflowId ?? '', nodeName ?? '', eventId]) : workflowId;
};
