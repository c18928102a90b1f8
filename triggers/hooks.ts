import { EVENTS } from '../lib/hooks/events';
import { hookTrigger } from '../lib/hooks/factory';

/** The thirteen instant triggers of CONTRACT §2, one per row of the event table. */
export const hookTriggers = EVENTS.map(hookTrigger);
