/*
 * The node's store and z.cache over it (src/store.ts), and the signing secret sealed by the credential
 * (src/sealed-secret.ts).
 */
import { openSecret, sealSecret } from '../../n8n-nodes-clinic-cashier/src/sealed-secret';
import { cacheOver, memoryStore, storedKey } from '../../n8n-nodes-clinic-cashier/src/store';
import { credentials } from './context';

describe('the process memory', () => {
  it('grants an nx write once while the key lives, and again once it has expired', async () => {
    let now = 0;
    const store = memoryStore(() => now);
    await expect(store.set('k', 1, 60, true)).resolves.toBe(true);
    await expect(store.set('k', 2, 60, true)).resolves.toBe(false);
    await expect(store.get('k')).resolves.toBe(1);
    now = 60_000;
    await expect(store.get('k')).resolves.toBeNull();
    await expect(store.set('k', 3, 60, true)).resolves.toBe(true);
  });

  it('grants one of many nx writes made at once', async () => {
    const store = memoryStore();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => store.set('k', i, 60, true)));
    expect(answers.filter(Boolean)).toHaveLength(1);
  });

  it('holds at most its limit of keys, forgetting the oldest first', async () => {
    const store = memoryStore(Date.now, 3);
    for (const k of ['a', 'b', 'c', 'd']) await store.set(k, k, 60, false);
    await expect(store.get('a')).resolves.toBeNull();
    await expect(store.get('d')).resolves.toBe('d');
    await expect(store.delete('b')).resolves.toBe(true);
    await expect(store.delete('b')).resolves.toBe(false);
  });
});

describe('z.cache over a store', () => {
  it('keys by the connection, hashed: another connection’s claim is not this one’s, and no key is readable', async () => {
    const store = memoryStore();
    const written: string[] = [];
    const set = store.set.bind(store);
    store.set = (key, ...rest) => (written.push(key), set(key, ...rest));
    const one = cacheOver(store, 'connection-1');
    const two = cacheOver(store, 'connection-2');
    await expect(one.set('delivery:clinic:77:evt_1', 1, 60, ['auth'], true)).resolves.toBe(true);
    await expect(one.set('delivery:clinic:77:evt_1', 1, 60, ['auth'], true)).resolves.toBe(false);
    await expect(two.set('delivery:clinic:77:evt_1', 1, 60, ['auth'], true)).resolves.toBe(true);
    expect(written[0]).toBe(storedKey('connection-1', 'delivery:clinic:77:evt_1'));
    expect(written.join()).not.toContain('evt_1');
  });

  it('tells whether a call failed, and with what, while the core goes on', async () => {
    const store = memoryStore();
    const cache = cacheOver({ ...store, get: () => Promise.reject(new TypeError('down')) }, 's');
    await expect(cache.set('k', 1, 60, [], true)).resolves.toBe(true);
    expect(cache.failed()).toBe(false);
    await expect(cache.get('k')).rejects.toThrow('down');
    expect(cache.failed()).toBe(true);
    expect(cache.failure()).toBeInstanceOf(TypeError);
  });
});

describe('the sealed signing secret', () => {
  const SECRET = 'whsec_n8n_test_secret_0123456789abcdef';
  const PATH = '/webhook/7f3c/webhook';

  it('opens with the credential that sealed it, and holds nothing of the secret', () => {
    const sealed = sealSecret(SECRET, credentials, 'clinic', PATH)!;
    expect(JSON.stringify(sealed)).not.toContain(SECRET);
    expect(JSON.stringify(sealed)).not.toContain(credentials.clinic_api_token);
    expect(openSecret(sealed, credentials, 'clinic', PATH)).toBe(SECRET);
    // Sealed again, it reads differently: nothing to compare across workflows.
    expect(sealSecret(SECRET, credentials, 'clinic', PATH)!.data).not.toBe(sealed.data);
  });

  it.each([
    ['another token', { ...credentials, clinic_api_token: 'clk_live_rotated' }, 'clinic', PATH],
    ['another address', { ...credentials, clinic_base_url: 'https://other.example/v1' }, 'clinic', PATH],
    ['the other interface', credentials, 'cashier', PATH],
    ['another webhook', credentials, 'clinic', '/webhook/other/webhook'],
  ])('opens nothing with %s', (_name, authData, api, path) => {
    const sealed = sealSecret(SECRET, credentials, 'clinic', PATH);
    expect(openSecret(sealed, authData as Record<string, string>, api, path)).toBeUndefined();
  });

  it('opens nothing tampered with, or not sealed at all', () => {
    const sealed = sealSecret(SECRET, credentials, 'clinic', PATH)!;
    const flipped = Buffer.from(sealed.data, 'base64');
    flipped[0] = flipped[0]! ^ 1;
    expect(openSecret({ ...sealed, data: flipped.toString('base64') }, credentials, 'clinic', PATH)).toBe(
      undefined,
    );
    expect(openSecret(SECRET, credentials, 'clinic', PATH)).toBeUndefined();
    expect(openSecret(undefined, credentials, 'clinic', PATH)).toBeUndefined();
  });
});
