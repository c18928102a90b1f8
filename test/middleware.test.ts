import { AFTER_RESPONSE } from '../lib/middleware';
import { App } from './helpers';

// The n8n seam runs lib/middleware.ts's list on every answer; one registered in index.ts alone would not run there.
describe('afterResponse: one list for both adapters', () => {
  it('index.ts registers exactly the list the n8n seam runs', () => {
    expect(App.afterResponse).toHaveLength(AFTER_RESPONSE.length);
  });
});
