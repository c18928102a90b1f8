// The plugin ships no types; the n8n tests read its rule sets (test/n8n/description-lint.test.ts).
declare module 'eslint-plugin-n8n-nodes-base' {
  import type { ESLint, Linter } from 'eslint';

  const plugin: ESLint.Plugin & { configs: Record<string, { rules: Linter.RulesRecord }> };
  export default plugin;
}
