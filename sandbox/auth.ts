/**
 * The gate of the partner interfaces (clinic and cashier spec §5 and §8): rate limits, tokens, accounts,
 * abilities, the owner rule and planned endpoints. routing.ts runs it in the order sandbox/README.md gives.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import SEED from './data/seed.json';
import { ApiError, requireAbility } from './errors';
import type { ApiClientRecord, Api } from './store';
import type { World } from './world';

export const abilitiesOf = (api: Api): readonly string[] => SEED.abilities[api];

/** The clinic takes `Authorization: Bearer` or `X-Api-Key`; the cashier shows Bearer only. */
export const tokenOf = (api: Api, headers: FastifyRequest['headers']): string | undefined => {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '')?.[1];
  const key = api === 'clinic' ? String(headers['x-api-key'] ?? '').trim() : '';
  return bearer ?? (key || undefined);
};

/**
 * Counts a request against its client's limit, or its address's when the token names no active client: a fixed
 * window of one minute of sandbox time per bucket. Every answer carries the count; over the limit is 429.
 */
export const countRequest = (w: World, ip: string, reply: FastifyReply, client?: ApiClientRecord) => {
  const active = !!client && !client.tokenRevoked && !client.clientRevoked;
  const bucket = active ? `client:${client.id}` : `address:${ip}`;
  const limit = active ? w.config.rateLimitPerMinute : w.config.anonymousRateLimitPerMinute;
  const now = w.clock.now();
  let win = w.rateWindows.get(bucket);
  if (!win || now - win.start >= 60_000) w.rateWindows.set(bucket, (win = { start: now, count: 0 }));
  const retry_after = Math.max(1, Math.ceil((win.start + 60_000 - now) / 1000));
  const allowed = win.count < limit;
  if (allowed) win.count += 1;
  reply.header('X-RateLimit-Limit', String(limit));
  reply.header('X-RateLimit-Remaining', String(Math.max(0, limit - win.count)));
  reply.header('X-RateLimit-Reset', String(retry_after));
  const details = { retry_after };
  if (!allowed) throw new ApiError('rate_limited', details, details, { 'Retry-After': String(retry_after) });
};

/** Token, client and account, then what the route asks of the caller; answers the caller or throws the refusal. */
export const authorize = (
  w: World,
  route: { method: string; path: string; ability?: string | null; ownerOnly?: boolean; plannable?: boolean },
  token: string | undefined,
  client: ApiClientRecord | undefined,
) => {
  if (!token) throw new ApiError('unauthenticated');
  if (!client || client.tokenRevoked) throw new ApiError('token_invalid');
  if (client.clientRevoked) throw new ApiError('client_revoked');
  const tenant = w.store.tenants.find((t) => t.id === client.tenantId);
  if (!tenant || tenant.status !== 'active')
    throw new ApiError('tenant_inactive', { status: tenant?.status ?? 'closed' });
  if (!tenant.entitled) throw new ApiError('not_entitled');
  requireAbility(client, route.ability);
  if (route.ownerOnly && !client.owner) throw new ApiError('forbidden');
  const endpoint = `${route.method} ${route.path}`;
  if (route.plannable && w.config.planned.has(endpoint)) throw new ApiError('not_implemented', { endpoint });
  return { client, tenant };
};
