import type { Bundle, HttpResponse, ZObject } from 'zapier-platform-core';
import { mapErrors } from './errors';

type AfterResponse = (response: HttpResponse, z: ZObject, bundle: Bundle) => HttpResponse;

/**
 * The app's afterResponse middleware, in the order they run: index.ts registers the list for Zapier and the n8n
 * seam runs it on every answer (n8n-nodes-clinic-cashier/src/seam.ts), so one added here runs on both.
 */
export const AFTER_RESPONSE: readonly AfterResponse[] = [mapErrors];

/** An answer through every afterResponse, as core runs them. */
export const afterResponse = (response: HttpResponse, z: ZObject, bundle: Bundle): HttpResponse =>
  AFTER_RESPONSE.reduce((answer, each) => each(answer, z, bundle), response);
