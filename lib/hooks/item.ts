/** The one item builder: what a Zap sees of an object, live, sampled or moved by Transfer. */
import type { HookEvent } from './events';

export const isObject = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && !Array.isArray(v);

/** The item a Zap sees for one object of an event (present makes a new object, which this completes in place). */
export const itemOf = (
  def: HookEvent,
  data: Record<string, unknown>,
  eventId: string,
  occurredAt: string | undefined,
): Record<string, unknown> => {
  const item: Record<string, unknown> = def.resource.present(data);
  if (def.derive) Object.assign(item, def.derive(data));
  item.event_id = eventId;
  item.occurred_at = occurredAt ?? null;
  return item;
};
