import nock from 'nock';

/** Where core sends z.cache calls when appTester's in-memory mock is off (create-rpc-client.js, no base endpoint). */
const RPC = { origin: 'https://rpc.zapier.com', path: '/cli' };

export interface RpcCall {
  method: string;
  params: unknown[];
}

/**
 * Zapier's cache as its RPC service answers it, for what appTester's mock lacks: an nx write to a taken key is
 * refused (answered false, as Zapier's cache answers it), and keys are kept apart by scope. The app's real z.cache
 * (core's create-cache.js, with its checks of ttl, scope and nx) sends each call here, so a test shares one cache
 * between concurrent appTester calls. `honourNx: false` behaves as appTester's mock does (every write succeeds), to
 * show what the nx claim prevents. `before` runs before each call is answered (a test's scheduler orders them).
 *
 * Use it with a tester whose `zcacheTestObj` is not a plain object; `stop` puts everything back.
 */
export const rpcCache = (
  options: { honourNx?: boolean; before?: (call: RpcCall) => Promise<unknown> } = {},
) => {
  const store = new Map<string, string>();
  const calls: RpcCall[] = [];
  const deployKey = process.env.ZAPIER_DEPLOY_KEY;
  process.env.ZAPIER_DEPLOY_KEY = 'unit-tests';
  const scoped = (key: unknown, scope: unknown) => `${JSON.stringify(scope ?? [])} ${String(key)}`;
  const interceptor = nock(RPC.origin).persist().post(RPC.path);
  const scope = interceptor.reply(async (_uri, body) => {
    const { id, method, params } = (typeof body === 'string' ? JSON.parse(body) : body) as {
      id: string;
      method: string;
      params: unknown[];
    };
    const call = { method, params };
    calls.push(call);
    await options.before?.(call);
    const [key, value, , scope, nx] = params;
    let result: unknown;
    if (method === 'zcache_get') result = store.get(scoped(key, value)) ?? null;
    else if (method === 'zcache_set') {
      const k = scoped(key, scope);
      result = nx === true && options.honourNx !== false && store.has(k) ? false : true;
      if (result) store.set(k, value as string);
    } else if (method === 'zcache_delete') result = store.delete(scoped(key, value));
    else return [400, { id, error: `unexpected ${method}` }];
    return [200, { id, result }];
  });
  return {
    calls,
    /** The value stored under `key` in `scope`, parsed as core would. */
    get: (key: string, scope: string[]) => {
      const raw = store.get(scoped(key, scope));
      return raw === undefined ? undefined : (JSON.parse(raw) as unknown);
    },
    keys: () => [...store.keys()],
    stop: () => {
      scope.persist(false);
      nock.removeInterceptor(interceptor);
      if (deployKey === undefined) delete process.env.ZAPIER_DEPLOY_KEY;
      else process.env.ZAPIER_DEPLOY_KEY = deployKey;
    },
  };
};
