/**
 * What an action's write is for, when something outside the workflow asked for it: the event, when a delivery of
 * this package's trigger started the execution; an AI assistant, when one called the node as a tool.
 *
 * n8n may run one event twice (two copies before the store is set up, a Retry after a worker died), and each run
 * gives the action the same event, so a reference derived from it meets the first run's at the interface, which
 * answers the booking it already made. A later event asking for the same booking is a new booking (a re-booking
 * after a cancellation), which a reference derived from the workflow and the inputs alone would answer with the
 * old one.
 *
 * An assistant repeats itself (a call sent again after a timeout or a reconnection, the same request read twice,
 * the person asking again in a later chat), and n8n runs each tool call as an execution of its own. Neither the
 * execution nor the MCP session tells a repeat from a new request: n8n keeps MCP sessions in memory, so a client
 * that reconnects (n8n restarted, the network dropped) repeats its call in a new session. What does tell is the
 * booking itself: the same phone, name, branch, type and time asked through the same tool is the same visit, in any
 * conversation, as a receptionist would say "you are already booked". Two people differ in phone or name, so they
 * are two bookings; a visit cancelled since and asked for again is booked anew (rebookScope below).
 */
import { CREATE } from '../../lib/keys';
import type { ExecuteFunctions } from './n8n-types';

/** The trigger's node type name; n8n prefixes it with the package's name or `CUSTOM`. */
const TRIGGER_TYPE = 'clinicCashierTrigger';

/**
 * The writes whose derived reference follows the event or the assistant: Book Appointment (`external_ref` when none
 * is given). Create Order's reference is a required input the user maps, and Create Item's memory stays per workflow
 * and inputs, as a Zap's, so the same item asked for by two events is still made once.
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

/** The header that carries the MCP client's session (MCP's Streamable HTTP transport). */
export const MCP_SESSION_HEADER = 'mcp-session-id';

/** The scope of a booking an AI assistant asked for. */
export const ASSISTANT = 'assistant';

const nonEmpty = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

/**
 * Whether an AI assistant called the node (item `i`) as a tool: n8n says so (`isToolExecution`), or the item the
 * node's expressions read is an MCP request (the MCP Server Trigger from version 2.1 hands its tools the request's
 * headers) or a chat turn of n8n's Chat Trigger.
 */
export const calledByAssistant = (ctx: ExecuteFunctions, i: number): boolean => {
  if (ctx.isToolExecution?.()) return true;
  let json: Record<string, unknown> | undefined;
  try {
    json = ctx.getWorkflowDataProxy(i).$json;
  } catch {
    return false;
  }
  const headers = json?.headers as Record<string, unknown> | undefined;
  return !!nonEmpty(headers?.[MCP_SESSION_HEADER]) || !!nonEmpty(json?.sessionId);
};

/** What a write of item `i` is for: the event that started the execution, else an assistant, else nothing. */
export const scopeOfItem = (ctx: ExecuteFunctions, i: number): string | undefined =>
  eventOfItem(ctx, i) ?? (calledByAssistant(ctx, i) ? ASSISTANT : undefined);

/**
 * The run identity the core reads as the Zap (`bundle.meta.zap.id`) for an item of an operation: the workflow, and
 * for an event-scoped write its scope and this node too (two Book Appointment nodes of one workflow book apart).
 */
export const runIdOf = (
  workflowId: string | undefined,
  createKey: string | undefined,
  nodeName: string | undefined,
  scopeOf: () => string | undefined,
): string | undefined => {
  const scope = createKey && EVENT_SCOPED.has(createKey) ? scopeOf() : undefined;
  return scope ? JSON.stringify([workflowId ?? '', nodeName ?? '', scope]) : workflowId;
};

/** The most times one tool call books anew past cancelled bookings it meets (each was asked for once). */
export const REBOOK_LIMIT = 5;

/**
 * The scope of an assistant's booking asked again after the booking it meets was cancelled, or undefined: the
 * person asking for a cancelled visit again is asking anew (a receptionist books it again), so the reference then
 * follows the cancelled appointment too, and a repeat of that request meets the new booking. An event is never
 * re-scoped: a Retry of an event whose booking the clinic has since cancelled must not book it back.
 */
export const rebookScope = (
  scope: string | undefined,
  inputData: Record<string, unknown>,
  result: unknown[],
): string | undefined => {
  // A reference the caller gave is theirs: booking anew under it would meet the same cancelled booking.
  if (!scope?.startsWith(ASSISTANT) || inputData.external_ref) return undefined;
  const [booked] = result as Array<Record<string, unknown> | undefined>;
  if (booked?.duplicate !== true || booked.status !== 'cancelled' || !nonEmpty(booked.id)) return undefined;
  return `${scope}\ncancelled:${String(booked.id)}`;
};
