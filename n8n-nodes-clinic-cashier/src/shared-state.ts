/**
 * Which store a node call's claims go to, and whether n8n runs in queue mode, where only a shared one holds: the
 * main, the webhook processors and the workers are separate processes, so a claim in one's memory is unseen by
 * the others. The Redis credential is optional on the nodes; a regular n8n (one process) needs none.
 */
import { languageOf, say, type Lang } from '../../lib/i18n';
import type { CredentialContext } from './delivery-credentials';
import { AppError } from './errors';
import { REDIS_CREDENTIAL, redisStore, type RedisCredential } from './redis-store';
import { processStore, type Store } from './store';

/**
 * Whether this n8n runs executions on queue workers. n8n gives a node no call that tells, and its own setting is the
 * environment variable every process of a queue-mode deployment is started with.
 */
export const inQueueMode = (): boolean =>
  // eslint-disable-next-line @n8n/community-nodes/no-restricted-globals -- n8n's mode is only in its environment
  process.env.EXECUTIONS_MODE === 'queue';

/** The node's Redis credential, when one is set (n8n throws on asking for a credential the node has not got). */
const redisCredentialOf = async (ctx: CredentialContext): Promise<RedisCredential | undefined> =>
  ctx.getNode().credentials?.[REDIS_CREDENTIAL]
    ? ((await ctx.getCredentials(REDIS_CREDENTIAL)) as RedisCredential)
    : undefined;

/** The store of a node call: the Redis of the node's credential, else this process's memory. */
export const storeOf = async (ctx: CredentialContext): Promise<Store> => {
  const credential = await redisCredentialOf(ctx);
  return credential ? redisStore(credential) : processStore;
};

/** Whether claims in this store hold where this n8n runs executions. */
export const holdsHere = (store: Store): boolean => store.reach === 'shared' || !inQueueMode();

export const ADD_REDIS = {
  en: 'add a Redis credential to this node (the Redis your n8n queue uses, QUEUE_BULL_REDIS_HOST, or another every n8n process reaches)',
  ar: 'أضف إلى هذه العقدة بيانات اعتماد Redis (خادم Redis الذي تستخدمه طابور n8n‏ QUEUE_BULL_REDIS_HOST، أو خادمًا آخر تصل إليه كل عمليات n8n)',
};

/** Activation of the trigger in queue mode without a shared store. */
export const noSharedStoreForDeliveries = (lang: Lang) =>
  new AppError(
    say(lang, {
      en: `This n8n runs in queue mode (EXECUTIONS_MODE=queue), where deliveries reach several n8n processes: only a store they all share can tell a repeated event from a new one, so without it one event could run the workflow twice. To activate, ${ADD_REDIS.en}.`,
      ar: `يعمل n8n هذا بوضع الطابور (EXECUTIONS_MODE=queue)، فتصل التسليمات إلى أكثر من عملية: ولا يميّز الحدث المكرر من الجديد إلا مخزن تتشاركه كلها، وبدونه قد يشغّل حدث واحد سير العمل مرتين. للتفعيل ${ADD_REDIS.ar}.`,
    }),
    'shared_store_required',
    400,
  );

/** An action that can only be kept from writing twice by a claim every worker sees: `what` says why and what to do. */
export const noSharedStoreForWrite = (lang: Lang, what: { en: string; ar: string }) =>
  new AppError(
    say(lang, {
      en: `This n8n runs in queue mode (EXECUTIONS_MODE=queue), where two workers can run this step at once: ${what.en}`,
      ar: `يعمل n8n هذا بوضع الطابور (EXECUTIONS_MODE=queue)، حيث قد ينفّذ عاملان هذه الخطوة معًا: ${what.ar}`,
    }),
    'shared_store_required',
    400,
  );

/** Redis could not be reached: a plain message with where it was looked for, never its password. */
export const storeUnreachable = (lang: Lang, cause: unknown) =>
  new AppError(
    say(lang, {
      en: `The Redis of this node's Redis credential could not be reached (${cause instanceof Error ? cause.name : 'error'}), so the node cannot tell whether this already ran. Check the credential's host, port and password, and that Redis is running.`,
      ar: `تعذّر الوصول إلى Redis المحدد في بيانات اعتماد Redis لهذه العقدة (${cause instanceof Error ? cause.name : 'error'})، فلا تعرف العقدة إن كان هذا قد نُفّذ من قبل. تحقق من المضيف والمنفذ وكلمة المرور في بيانات الاعتماد ومن أن Redis يعمل.`,
    }),
    'shared_store_unreachable',
    503,
  );

/** Asks the store once, so activation fails now, in plain words, rather than at the first delivery. */
export const checkReachable = async (store: Store, lang: Lang) => {
  try {
    await store.get('n8n-clinic-cashier:reachable');
  } catch (error) {
    throw storeUnreachable(lang, error);
  }
};

export { languageOf };
