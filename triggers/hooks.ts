import { EVENTS } from '../lib/hooks/events';
import { hookTrigger } from '../lib/hooks/factory';

/** The instant triggers of CONTRACT §2 and §8, one per row of the event table. */
export const hookTriggers = EVENTS.map(hookTrigger);
