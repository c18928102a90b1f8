/**
 * The signing secret as the trigger keeps it in the workflow's static data, which n8n stores in clear and returns
 * to anyone who can read the workflow: sealed with AES-256-GCM under a key derived (HKDF-SHA256) from the
 * connection's token and address for the subscription's interface. n8n encrypts credentials, so only a process
 * holding the credential can open it; reading the workflow or a database dump yields nothing usable. A changed
 * token or address opens nothing, which the trigger reads as "not subscribed" (n8n then subscribes again).
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** What static data holds of a secret: all base64, none of it the secret or its key. */
export interface Sealed {
  v: 1;
  salt: string;
  iv: string;
  tag: string;
  data: string;
}

const INFO = 'n8n-nodes-clinic-cashier/subscription-secret/v1';

/** The key material of an interface: its token and base address (the credential's, as authData holds them). */
const materialOf = (authData: Record<string, string>, api: string): string | undefined => {
  const token = authData[`${api}_api_token`];
  return token ? JSON.stringify([api, token, authData[`${api}_base_url`] ?? '']) : undefined;
};

const keyOf = (material: string, salt: Buffer, aad: string) =>
  Buffer.from(hkdfSync('sha256', material, salt, `${INFO}:${aad}`, 32));

/**
 * Seals the secret of a subscription with `api` for the hook address `aad` (the subscription's target path): a
 * sealed secret copied to another workflow's static data does not open there.
 */
export const sealSecret = (
  secret: string,
  authData: Record<string, string>,
  api: string,
  aad: string,
): Sealed | undefined => {
  const material = materialOf(authData, api);
  if (!material) return undefined;
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(material, salt, aad), iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const data = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return {
    v: 1,
    salt: salt.toString('base64'),
    iv: iv.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
    data: data.toString('base64'),
  };
};

const isSealed = (v: unknown): v is Sealed =>
  !!v &&
  typeof v === 'object' &&
  (v as Sealed).v === 1 &&
  ['salt', 'iv', 'tag', 'data'].every(
    (k) => typeof (v as unknown as Record<string, unknown>)[k] === 'string',
  );

/** The secret, or undefined when this credential does not open it (changed, or another connection's). */
export const openSecret = (
  sealed: unknown,
  authData: Record<string, string>,
  api: string,
  aad: string,
): string | undefined => {
  const material = materialOf(authData, api);
  if (!material || !isSealed(sealed)) return undefined;
  try {
    const decipher = createDecipheriv(
      'aes-256-gcm',
      keyOf(material, Buffer.from(sealed.salt, 'base64'), aad),
      Buffer.from(sealed.iv, 'base64'),
    );
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    return undefined;
  }
};
