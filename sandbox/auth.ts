/**
 * Tokens, abilities and rate limits (clinic spec §5 and §8, cashier spec §5 and §8).
 *
 * Order of checks on a partner request: rate limit (per active client, or per address for a token that matches
 * no active client), then the token (401 unauthenticated, 401 token_invalid), the client (409 client_revoked),
 * the account (403 tenant_inactive, 403 not_entitled), then per endpoint the ability (403 insufficient_ability),
 * the owner rule (403 forbidden) and planned endpoints (501 not_implemented).
 */
import { ApiError } from './errors';
import type { ApiClientRecord, Api, Store } from './store';
import SEED from './data/seed.json';

export const abilitiesOf = (api: Api): readonly string[] => SEED.abilities[api];

/** The clinic takes `Authorization: Bearer` or `X-Api-Key`; the cashier shows Bearer only. */
export const tokenOf = (
  api: Api,
  headers: Record<string, string | string[] | undefined>,
): string | undefined => {
  const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const auth = first(headers.authorization);
  const bearer = auth ? /^Bearer\s+(\S+)\s*$/i.exec(auth)?.[1] : undefined;
  if (bearer) return bearer;
  if (api === 'clinic') {
    const key = first(headers['x-api-key'])?.trim();
    if (key) return key;
  }
  return undefined;
};

/** The client a token belongs to on this interface (a clinic token means nothing to the cashier). */
export const clientOfToken = (
  store: Store,
  api: Api,
  token: string | undefined,
): ApiClientRecord | undefined =>
  token ? store.clients.find((c) => c.api === api && c.token === token) : undefined;

/** A client whose requests count against its own limit; everything else shares the per-address one. */
export const isActiveClient = (client: ApiClientRecord | undefined): client is ApiClientRecord =>
  !!client && !client.tokenRevoked && !client.clientRevoked;

export const authenticate = (
  store: Store,
  token: string | undefined,
  client: ApiClientRecord | undefined,
) => {
  if (!token) throw new ApiError('unauthenticated');
  if (!client || client.tokenRevoked) throw new ApiError('token_invalid');
  if (client.clientRevoked) throw new ApiError('client_revoked');
  const tenant = store.tenants.find((t) => t.id === client.tenantId);
  if (!tenant || tenant.status !== 'active')
    throw new ApiError('tenant_inactive', { status: tenant?.status ?? 'closed' });
  if (!tenant.entitled) throw new ApiError('not_entitled');
  return { client, tenant };
};

export const requireAbility = (client: ApiClientRecord, ability: string | null): void => {
  if (ability && !client.abilities.includes(ability)) {
    throw new ApiError('insufficient_ability', { required_ability: ability }, { ability });
  }
};

/* Rate limits: a fixed window of one minute of sandbox time per bucket. */

export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  /** Counts a request; `resetSeconds`: seconds until the window resets. */
  hit(key: string, limit: number, now: number) {
    const windowMs = 60_000;
    let w = this.windows.get(key);
    if (!w || now - w.start >= windowMs) {
      w = { start: now, count: 0 };
      this.windows.set(key, w);
    }
    const resetSeconds = Math.max(1, Math.ceil((w.start + windowMs - now) / 1000));
    if (w.count >= limit) return { limit, remaining: 0, resetSeconds, allowed: false };
    w.count += 1;
    return { limit, remaining: limit - w.count, resetSeconds, allowed: true };
  }

  reset(): void {
    this.windows.clear();
  }
}
