import { SETTINGS } from '../lib/config';
import { writeLock } from '../lib/locks';

/* Every item write declaring it, and Zapier's rules for it: test/concurrent-writes.test.ts. */

describe('writeLock', () => {
  it('keys the action by the value of its input, on one connection, for the settings’ time', () => {
    expect(writeLock('update_item', 'item_id')).toEqual({
      key: 'update_item:{{bundle.inputData.item_id}}',
      scope: ['auth'],
      timeout: SETTINGS.writeLockSeconds,
    });
  });
});
