/**
 * The sandbox's own signer, written from the specs (clinic "Signature", cashier "Webhooks") and not from the
 * app's code, so that the end-to-end suites check the app's reading of the spec against an independent one.
 */
import { createHash, createHmac } from 'node:crypto';

/**
 * `sha256=` + lowercase hex HMAC-SHA256 keyed with the secret as issued (`whsec_` prefix included), over the
 * timestamp, the word POST, the receiver URL's path without query and the hex SHA-256 of the raw body bytes,
 * joined by line feeds.
 */
export const signDelivery = (
  secret: string,
  timestamp: string,
  receiverPath: string,
  body: string,
): string => {
  const bodyDigest = createHash('sha256').update(Buffer.from(body, 'utf8')).digest('hex');
  const message = [timestamp, 'POST', receiverPath, bodyDigest].join('\n');
  return `sha256=${createHmac('sha256', secret).update(message).digest('hex')}`;
};
