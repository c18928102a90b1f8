import { CREATE, SEARCH } from '../lib/keys';

/**
 * The app's search-or-create pairs (CONTRACT §4): Zapier runs the search and, when it finds nothing, the create, with
 * the step's inputs. index.ts registers them; the n8n action node runs the same pairs.
 */
export const searchOrCreates = [
  {
    // Find an item by SKU or barcode, and create it when the catalogue does not have it yet.
    key: SEARCH.findItem,
    display: {
      label: 'Find or Create Item',
      description: 'Finds a catalogue item by SKU or barcode, and creates it when it does not exist yet.',
    },
    search: SEARCH.findItem,
    create: CREATE.createItem,
  },
] as const;
