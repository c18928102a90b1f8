import type { Bundle, ZObject } from 'zapier-platform-core';
import { clientFor, type ApiClient } from '../http';
import { capital, hostOf } from '../host';
import { AppMessageError, languageOf, say } from '../i18n';
import { APIS } from '../partner-apis';
import { path } from '../path';
import { checkInputs } from './extensions';
import { isObject } from './item';
import type { HookBundle, HookEvent, SubscribeData } from './types';

type SubscriptionBundle = Pick<Bundle, 'authData' | 'targetUrl'> & {
  subscribeData?: Partial<SubscribeData>;
};

/** Subscriptions read when looking for the ones a lost answer left behind: far beyond any account's limit. */
const LIST_LIMIT = 1000;

/** A subscription id as both specs give it (an integer, or its digits); anything else never reaches a path. */
export const subscriptionId = (value: unknown): number | undefined => {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\d{1,15}$/.test(value)
        ? Number(value)
        : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
};

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/**
 * An address in the one spelling of RFC 3986's normalisations that never change what it names: the URL standard's
 * parse (scheme and host lower case, the scheme's default port dropped, an empty path as `/`, characters a URL
 * cannot carry percent-encoded), then percent-encodings in upper-case hex, and those of unreserved characters
 * decoded. Anything else (path case, a trailing slash after a segment, the query) names another address.
 */
export const addressOf = (text: string): string | undefined => {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  const tidy = (part: string) =>
    part.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => {
      const c = String.fromCharCode(parseInt(hex, 16));
      return UNRESERVED.test(c) ? c : `%${hex.toUpperCase()}`;
    });
  url.pathname = tidy(url.pathname);
  url.search = tidy(url.search);
  url.hash = tidy(url.hash);
  // Setting a part re-encodes what it must and nothing more, so the spelling is stable.
  return url.href;
};

/** Whether two spellings name the same hook address (an unparseable one matches nothing). */
export const sameAddress = (a: unknown, b: string): boolean => {
  const x = typeof a === 'string' ? addressOf(a) : undefined;
  return x !== undefined && x === addressOf(b);
};

/**
 * The account's subscriptions of this target and event, through every page of GET /webhooks. The interface may
 * give the address back in another spelling of the same address; it is compared as an address.
 */
const existing = async (client: ApiClient, targetUrl: string, event: string): Promise<number[]> => {
  const rows = await client.all<unknown>('/webhooks', {}, LIST_LIMIT);
  const ids = rows
    .filter(isObject)
    .filter((r) => sameAddress(r.target_url, targetUrl) && r.event === event)
    .map((r) => subscriptionId(r.id))
    .filter((id): id is number => id !== undefined);
  return [...new Set(ids)];
};

/**
 * POST /webhooks for the Zap's hook address, leaving exactly one subscription for it. Zapier calls this again when
 * an answer was lost, and only POST returns a secret: a subscription of the same target and event already there
 * is one whose secret nobody holds, so it is deleted before the new one is made. An answer without a usable
 * secret is refused, and the subscription it made is deleted again, so no Zap is left subscribed blind.
 */
export const subscribe = async (
  z: ZObject,
  bundle: SubscriptionBundle,
  def: HookEvent,
): Promise<SubscribeData> => {
  const targetUrl = bundle.targetUrl ?? '';
  // The path is taken before subscribing: a subscription whose deliveries could never be checked must not be made.
  const targetPath = new URL(targetUrl).pathname;
  const client = clientFor(z, bundle, def.api);
  for (const id of await existing(client, targetUrl, def.event)) await client.remove(path`/webhooks/${id}`);
  const { body } = await client.post('/webhooks', { target_url: targetUrl, event: def.event });
  const answer = isObject(body) ? body : {};
  const data = isObject(answer.data) ? answer.data : {};
  const id = subscriptionId(answer.id ?? data.id);
  const secret = answer.secret ?? data.secret;
  if (id !== undefined && typeof secret === 'string' && secret.trim() !== '') {
    return { id, secret, target_path: targetPath, event: def.event, api: def.api };
  }
  // A 404 here means it is already gone; any other failure leaves it for the next subscribe to remove.
  const removed =
    id !== undefined &&
    (await client.remove(path`/webhooks/${id}`).then(
      () => true,
      () => false,
    ));
  const name = APIS[def.api].name;
  const { words } = hostOf(bundle);
  throw new z.errors.Error(
    say(languageOf(bundle), {
      en: `The ${name.en} interface accepted the subscription but did not return its id and signing secret, ${removed ? 'so the app deleted it again' : `and the app could not delete it ${words.orphanDeleted.en}`}. ${capital(words.reactivate.en)} again.`,
      ar: `قبلت واجهة ${name.ar} الاشتراك لكنها لم تُرجع معرّفه وسر التوقيع، ${removed ? 'فحذفه التطبيق' : `ولم يتمكن التطبيق من حذفه ${words.orphanDeleted.ar}`}. ${words.reactivate.ar} من جديد.`,
    }),
    'subscribe_incomplete',
    502,
  );
};

/** DELETE /webhooks/{id}; a 404 means the interface already forgot it (switched off, deleted in the back office). */
export const unsubscribe = async (z: ZObject, bundle: SubscriptionBundle, def: HookEvent) => {
  const stored = bundle.subscribeData?.id;
  if (stored === undefined) return { removed: false };
  const id = subscriptionId(stored);
  if (id === undefined) {
    const name = APIS[def.api].name;
    const { words } = hostOf(bundle);
    throw new AppMessageError(
      say(languageOf(bundle), {
        en: `The ${name.en} subscription this ${words.flow} holds has no valid id (a whole number), so nothing was deleted. If it still sends deliveries, the account owner deletes it in the back office's developers area.`,
        ar: `لا يحمل اشتراك ${name.ar} المحفوظ في ${words.thisFlowAr} معرّفًا صالحًا (عددًا صحيحًا)، فلم يُحذف شيء. إن ظل يرسل تسليمات فليحذفه مالك الحساب من قسم المطورين في المكتب الخلفي.`,
      }),
    );
  }
  return { removed: await clientFor(z, bundle, def.api).remove(path`/webhooks/${id}`) };
};

/** The trigger's performSubscribe: an input that could never pass (an unknown Consent Channel) subscribes nothing. */
export const makePerformSubscribe = (def: HookEvent) => (z: ZObject, bundle: HookBundle) => {
  checkInputs(def.extensions, z, bundle as Bundle);
  return subscribe(z, bundle, def);
};

export const makePerformUnsubscribe = (def: HookEvent) => (z: ZObject, bundle: HookBundle) =>
  unsubscribe(z, bundle, def);
