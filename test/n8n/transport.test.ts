/**
 * A request the n8n nodes send through the seam (n8n-nodes-clinic-cashier/src/seam.ts) holds nothing once answered:
 * its time-out timer ends with the answer. AbortSignal.timeout's ran the whole time-out after every request,
 * keeping the request's async context (an n8n execution, or a whole jest file) alive until then.
 */
import { createHook } from 'node:async_hooks';
import { seam } from '../../n8n-nodes-clinic-cashier/src/seam';
import { clinicApi, clinicPath, useNock } from '../helpers';
import { credentials } from './context';

useNock();

/** A time-out no other timer of the worker has, so the request's own timers are told apart. */
const TIMEOUT_MS = 24_321;

it('a request’s time-out timer ends with its answer', async () => {
  const timers: Array<{ _destroyed?: boolean }> = [];
  const hook = createHook({
    init(_id, type, _trigger, resource) {
      const timer = resource as { _idleTimeout?: number; _destroyed?: boolean };
      if (type === 'Timeout' && timer._idleTimeout === TIMEOUT_MS) timers.push(timer);
    },
  }).enable();
  try {
    clinicApi().get(clinicPath('/branches')).reply(204);
    const { z } = seam({ authData: credentials });
    const answer = await z.request({
      url: `${credentials.clinic_base_url}/branches`,
      headers: { authorization: `Bearer ${credentials.clinic_api_token}`, 'accept-language': 'en' },
      timeout: TIMEOUT_MS,
    });
    expect(answer.status).toBe(204);
  } finally {
    hook.disable();
  }
  expect(timers).toHaveLength(1);
  expect(timers[0]!._destroyed).toBe(true);
});
