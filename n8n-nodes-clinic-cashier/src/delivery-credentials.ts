/**
 * The credentials a delivery reads, each read from n8n at most once every few seconds in a process.
 *
 * Outside an execution n8n resolves a credential in an expression isolate made for that one read
 * (`CredentialsHelper.applyDefaultsAndOverwrites` in n8n 2.41), after a database read: per delivery, that costs n8n
 * more than the whole check the node makes. Deliveries come in bursts, so a burst shares one read: a delivery takes
 * the credential read less than HOLD_MS ago, and deliveries at the same instant wait for the same read. A credential
 * edited in n8n reaches deliveries within HOLD_MS; activation, executions and every other call read it fresh. The
 * values are held in this process's memory only, as n8n holds them while it runs a node.
 */

type Json = Record<string, unknown>;

export interface CredentialContext {
  getNode(): { credentials?: Json };
  getCredentials(name: string): Promise<Json>;
}

export const HOLD_MS = 5_000;

interface Held {
  until: number;
  data: Promise<Json>;
}

const held = new Map<string, Held>();

/** The id n8n gives the credential a node uses for `name`, if any. */
const idOf = (ctx: CredentialContext, name: string): string | undefined => {
  const ref = ctx.getNode().credentials?.[name] as { id?: unknown } | undefined;
  return typeof ref?.id === 'string' && ref.id !== '' ? ref.id : undefined;
};

/**
 * A context whose getCredentials shares recent reads of this process, for the webhook phase of a delivery. A read
 * that fails is not kept. `now` is for tests.
 */
export const deliveryCredentials = (
  ctx: CredentialContext,
  now: () => number = Date.now,
): CredentialContext => ({
  getNode: () => ctx.getNode(),
  getCredentials(name) {
    const id = idOf(ctx, name);
    if (id === undefined) return ctx.getCredentials(name);
    const key = `${name}\u0000${id}`;
    const t = now();
    const found = held.get(key);
    if (found && found.until > t) return found.data;
    const data = ctx.getCredentials(name);
    const entry = { until: t + HOLD_MS, data };
    const forget = () => {
      if (held.get(key) === entry) held.delete(key);
    };
    held.set(key, entry);
    data.catch(forget);
    // Not kept in memory past its time when no delivery comes to replace it.
    // eslint-disable-next-line @n8n/community-nodes/no-restricted-globals -- a cleanup, not a wait: nothing awaits it
    setTimeout(forget, HOLD_MS).unref();
    return data;
  },
});

/** Forgets every held read (tests). */
export const forgetDeliveryCredentials = () => held.clear();
