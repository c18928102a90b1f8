/**
 * Seed data that looks like a real Saudi clinic group and café chain: Riyadh and Jeddah branches, Arabic and
 * English names, insurance payers, VAT-inclusive till prices. Reference data has fixed ids; business data is
 * placed around the sandbox clock's start (appointments today, receipts in today's till sessions…).
 */
import { dateLocal } from '../ids';
import type { ApiClientRecord, Tenant } from './types';
import type { LineInput } from './money';
import SEED from '../data/seed.json';

export const CLINIC_TENANT = 1001;
export const CASHIER_TENANT = 2001;

export const seedTenants = (): Tenant[] => structuredClone(SEED.tenants) as Tenant[];

export const TOKEN_NAMES = [
  'clinicOwner',
  'clinicReadOnly',
  'clinicNoWebhooks',
  'clinicNonOwner',
  'clinicWebhooksOnly',
  'clinicRevokedToken',
  'clinicRevokedClient',
  'clinicSuspended',
  'clinicNotEntitled',
  'cashierOwner',
  'cashierReadOnly',
  'cashierNoWebhooks',
  'cashierRevokedToken',
  'cashierRevokedClient',
  'cashierSuspended',
  'cashierNotEntitled',
] as const;

export type TokenName = (typeof TOKEN_NAMES)[number];

interface ClientSeed {
  key: TokenName;
  api: 'clinic' | 'cashier';
  tenantId: number;
  name: string;
  abilities: string[];
  owner?: boolean;
  tokenRevoked?: boolean;
  clientRevoked?: boolean;
  provider?: string;
  note: string;
}

/** The named tokens (sandbox/README.md lists them). Tokens are fixed so a developer can keep them in .env. */
const CLIENTS = SEED.clients as ClientSeed[];

const tokenFor = (key: string) => `sbx_${key.replace(/[A-Z]/g, (ch) => `_${ch.toLowerCase()}`)}`;

/** An API client: not the owner's, not revoked, provider "partner" and a token named after it unless `c` says otherwise. */
export const newClient = (
  id: number,
  c: Omit<ClientSeed, 'key'> & { key: string; token?: string },
): ApiClientRecord => ({
  id,
  tenantId: c.tenantId,
  api: c.api,
  key: c.key,
  name: c.name,
  token: c.token ?? tokenFor(c.key),
  abilities: [...c.abilities],
  owner: c.owner ?? false,
  tokenRevoked: c.tokenRevoked ?? false,
  clientRevoked: c.clientRevoked ?? false,
  provider: c.provider ?? 'partner',
  note: c.note,
});

export const seedClients = (): ApiClientRecord[] => CLIENTS.map((c, i) => newClient(i + 1, c));

/* Time helpers around the clock's start. */

export const MIN = 60_000;
export const DAY = 24 * 60 * MIN;

export const times = (now: number) => {
  const round5 = Math.floor(now / (5 * MIN)) * 5 * MIN;
  return {
    /** `minutes` from now, on a 5-minute mark. */
    rel: (minutes: number) => round5 + minutes * MIN,
    /** A branch-local wall time on the day `days` from today. */
    day: (days: number, hhmm: string) => Date.parse(`${dateLocal(now + days * DAY)}T${hhmm}:00+03:00`),
  };
};

/** A date some years back, for records made long before the sandbox started. */
export const past = (iso: string) => Date.parse(iso);

/**
 * An invoice line from the seed's treatments (data/seed.json `treatments`, by code), with what the row changes
 * (tooth, surfaces, another price): the one catalogue of the seed's invoices and the history's.
 */
export const treatment = (row: { code: string }): LineInput =>
  ({
    nature: 'medical',
    qty: 1,
    unit_halalas: 0,
    tax_category: 'standard',
    code: '',
    description: '',
    tooth: null,
    surfaces: [],
    ...SEED.treatments.find((t) => t.code === row.code),
    ...(row as object),
  }) as LineInput;
