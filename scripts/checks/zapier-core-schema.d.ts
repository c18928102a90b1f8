// Core's own app compiler and serializer (what `zapier-platform build` writes to definition.json). Core ships no
// types for its internals; this is the part the checks use.
declare module 'zapier-platform-core/src/tools/schema' {
  export function compileApp(app: object): object;
  export function serializeApp(compiledApp: object): unknown;
}
