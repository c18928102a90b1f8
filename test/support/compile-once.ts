/**
 * zapier-platform-core compiles the app definition on every call, twice (`prepareApp`: a deep copy, resources
 * expanded, a deep freeze; its own TODO says the second is redundant): about 3 ms each for this app, a third of
 * the unit suites' CPU. What it makes depends only on the raw definition, so a jest file compiles each definition
 * once and every call gets that frozen result, as Zapier's would be, only not rebuilt.
 *
 * It holds only while the definition does not change between calls, so the first compile deep-freezes the raw
 * definition's parts too: a test or the app writing into it throws instead of running on a stale compile (in a
 * warm Zapier container such a write would leak into the next call as well). The top level stays open, because
 * core's tester puts an ad-hoc function there (`_testRequest`) for the call that runs it; that one is added to
 * the compiled app as core would add it.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const schema = require('zapier-platform-core/src/tools/schema') as { prepareApp: (app: object) => object };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { deepFreeze } = require('zapier-platform-core/src/tools/data') as {
  deepFreeze: (o: object) => object;
};

/** Core's own compile, as every call would run it. */
export const prepareApp = schema.prepareApp;
const compiled = new WeakMap<object, object>();

schema.prepareApp = (appRaw: object) => {
  const { _testRequest, ...definition } = appRaw as { _testRequest?: unknown };
  let app = compiled.get(appRaw);
  if (!app) {
    for (const part of Object.values(definition))
      if (part !== null && typeof part === 'object') deepFreeze(part);
    app = prepareApp(definition);
    compiled.set(appRaw, app);
  }
  return _testRequest === undefined ? app : Object.freeze({ ...app, _testRequest });
};
