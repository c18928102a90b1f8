import { testAuth } from '../../authentication';
import { authDataOf, seam } from './seam';

export const CREDENTIAL = 'clinicCashierApi';
export const CREDENTIAL_TEST = 'clinicCashierApiTest';

/** n8n's credential test result from the Zapier app's connection test (the ping of each interface with a token). */
export const testConnection = async (credential: { data?: Record<string, unknown> }) => {
  const { z, bundle } = seam({ authData: authDataOf(credential.data ?? {}) });
  try {
    await testAuth(z, bundle);
    return { status: 'OK' as const, message: 'Connection tested successfully' };
  } catch (error) {
    return { status: 'Error' as const, message: error instanceof Error ? error.message : String(error) };
  }
};

/** The credentials of a node call, as the core's authData. */
export const authDataFrom = async (ctx: { getCredentials(name: string): Promise<Record<string, unknown>> }) =>
  authDataOf(await ctx.getCredentials(CREDENTIAL));
