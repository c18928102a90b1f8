import { defineApp, version as platformVersion } from 'zapier-platform-core';
import { authentication } from './authentication';
import { creates } from './creates';
import { searches } from './searches';
import { searchOrCreates } from './searches/search_or_creates';
import { AFTER_RESPONSE } from './lib/middleware';
import { sealApp } from './lib/seal';
import { hydratePatient } from './lib/patients';
import { APP_VERSION } from './lib/version';
import { appointmentStartingSoon } from './triggers/appointment_starting_soon';
import { dropdownTriggers } from './triggers/dropdowns';
import { hookTriggers } from './triggers/hooks';

const byKey = <T extends { key: string }>(items: readonly T[]): Record<string, T> =>
  Object.fromEntries(items.map((item) => [item.key, item]));

// Every function is sealed: no error leaves the app with the bundle, a secret or a delivery in it (lib/seal.ts).
const app = sealApp(
  defineApp({
    version: APP_VERSION,
    platformVersion,
    flags: { throwForThrottlingEarly: false },
    authentication,
    afterResponse: [...AFTER_RESPONSE],
    hydrators: { patient: hydratePatient },
    triggers: byKey([...hookTriggers, appointmentStartingSoon, ...dropdownTriggers]),
    creates: byKey(creates),
    searches: byKey(searches),
    searchOrCreates: byKey(searchOrCreates),
  }),
);

// CommonJS `export =`: core's loader on Zapier does not unwrap `default` (see PLATFORM-NOTES).
export = app;
