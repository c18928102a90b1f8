// n8n's community-node lint, as `n8n-node lint` (@n8n/node-cli) runs it: @n8n/eslint-plugin-community-nodes'
// recommended rules (the strict set, with n8n Cloud's restrictions) over the node and credential sources and the
// package.json, and eslint-plugin-n8n-nodes-base's community, credentials and nodes rules. The root eslint config
// includes it, so `npm run lint` runs it. A rule switched off below cannot apply to a package whose nodes are built
// from the Zapier app's core; each says why.
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import tseslint from 'typescript-eslint';

const here = 'n8n-nodes-clinic-cashier';
const recommended = n8nCommunityNodesPlugin.configs.recommended;

export default [
  {
    files: [`${here}/src/**/*.ts`],
    ...recommended,
    rules: {
      ...recommended.rules,
      // The nodes throw the core's own errors (src/errors.ts, the classes the Zapier app throws through z.errors)
      // with the messages a Zap shows. NodeApiError and NodeOperationError are classes of n8n-workflow, which the
      // bundle never loads at run time (no runtime dependency; n8n-workflow is an optional peer); n8n shows an error
      // of any class with its message.
      '@n8n/community-nodes/require-node-api-error': 'off',
      // For the same reason the nodes write n8n's connection type as its value, 'main', not as n8n-workflow's
      // NodeConnectionTypes.Main.
      '@n8n/community-nodes/node-connection-type-literal': 'off',
      // The icon is one file, icons/clinic-cashier.svg, that build.js copies beside every node and credential file of
      // dist/, where n8n reads it (src/icon.ts); the rule looks for it beside the source file.
      '@n8n/community-nodes/icon-validation': 'off',
    },
  },
  {
    files: [`${here}/package.json`],
    ...recommended,
    plugins: { ...recommended.plugins, 'n8n-nodes-base': n8nNodesBase },
    rules: {
      ...recommended.rules,
      ...n8nNodesBase.configs.community.rules,
      // The licence is the vendor's choice, not the starter's MIT: scripts/check-n8n-publish.ts refuses to publish
      // until package.json names one (it is UNLICENSED while the package is private).
      'n8n-nodes-base/community-package-json-license-not-default': 'off',
      // The root config's TypeScript rules see a JSON file as one bare expression.
      '@typescript-eslint/no-unused-expressions': 'off',
    },
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { extraFileExtensions: ['.json'] },
    },
  },
  {
    files: [`${here}/src/credentials/**/*.ts`],
    plugins: { 'n8n-nodes-base': n8nNodesBase },
    rules: {
      ...n8nNodesBase.configs.credentials.rules,
      // Switched off by `n8n-node lint` itself.
      'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
      'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
      // The credential is tested by every node's credentialTest (`testedBy: CREDENTIAL_TEST`, src/connection.ts: the
      // app's own test, GET /ping on each interface that has a token, which one declarative request cannot do);
      // the rule recognises only a literal credential name in the node files.
      '@n8n/community-nodes/credential-test-required': 'off',
    },
  },
  {
    files: [`${here}/src/nodes/**/*.ts`],
    plugins: { 'n8n-nodes-base': n8nNodesBase },
    rules: {
      ...n8nNodesBase.configs.nodes.rules,
      // As require-node-api-error above: the core's errors, not n8n-workflow's classes.
      'n8n-nodes-base/node-execute-block-wrong-error-thrown': 'off',
      // Switched off by `n8n-node lint` itself.
      'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
      'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
      'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
    },
  },
];
