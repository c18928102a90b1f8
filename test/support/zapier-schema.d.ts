// zapier-platform-schema (core's own dependency, what `zapier-platform validate` checks an app against) ships no
// types; this is the part the suites use.
declare module 'zapier-platform-schema' {
  export function validateAppDefinition(definition: object): { errors: Array<{ stack: string }> };
}
