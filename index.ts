import { defineApp, version as platformVersion } from 'zapier-platform-core';
import { authentication } from './authentication';
import { creates } from './creates';
import { searches } from './searches';
import { mapErrors } from './lib/errors';
import { sealApp } from './lib/seal';
import { CREATE, SEARCH } from './lib/keys';
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
    afterResponse: [mapErrors],
    hydrators: { patient: hydratePatient },
    triggers: byKey([...hookTriggers, appointmentStartingSoon, ...dropdownTriggers]),
    creates: byKey(creates),
    searches: byKey(searches),
    searchOrCreates: {
      // Find an item by SKU or barcode, and create it when the catalogue does not have it yet (CONTRACT §4).
      [SEARCH.findItem]: {
        key: SEARCH.findItem,
        display: {
          label: 'Find or Create Item',
          description: 'Finds a catalogue item by SKU or barcode, and creates it when it does not exist yet.',
        },
        search: SEARCH.findItem,
        create: CREATE.createItem,
      },
    },
  }),
);

// CommonJS `export =`: core's loader on Zapier does not unwrap `default` (see PLATFORM-NOTES).
export = app;
