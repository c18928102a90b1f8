import { inspect } from 'node:util';
import { Linter } from 'eslint';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import tseslint from 'typescript-eslint';
import { ClinicCashier } from '../../n8n-nodes-clinic-cashier/src/nodes/ClinicCashier/ClinicCashier.node';
import { ClinicCashierStartingSoonTrigger } from '../../n8n-nodes-clinic-cashier/src/nodes/ClinicCashierStartingSoonTrigger/ClinicCashierStartingSoonTrigger.node';
import { ClinicCashierTrigger } from '../../n8n-nodes-clinic-cashier/src/nodes/ClinicCashierTrigger/ClinicCashierTrigger.node';

/*
 * n8n's parameter rules (eslint-plugin-n8n-nodes-base, as `npm run lint` runs them on the sources) over each
 * node's description as n8n loads it: the operations and inputs are built from the Zapier app's definitions at load time,
 * so the sources hold no literal for the rules to read. The description is written out as the object literal a
 * hand-written node would hold.
 */

/** Rules that judge the Zapier app's own texts, which the node shows as they are; each with the reason. */
const APP_TEXTS = {
  // Labels and help are the app's (lib/inputs.ts, lib/hooks/filters.ts), one text for the Zap and the node, held
  // to Zapier's style by the app's checks; n8n's wording conventions would make a second set to keep.
  'n8n-nodes-base/node-param-display-name-miscased': 'off',
  'n8n-nodes-base/node-param-description-miscased-id': 'off',
  'n8n-nodes-base/node-param-description-boolean-without-whether': 'off',
  // A dropdown keeps the app's label and help (what the list holds, what narrows it) and adds n8n's sentence on
  // expressions after it (src/fields.ts), rather than n8n's fixed label suffix and sentence alone.
  'n8n-nodes-base/node-param-display-name-wrong-for-dynamic-options': 'off',
  'n8n-nodes-base/node-param-description-wrong-for-dynamic-options': 'off',
  // The actions are in sentence case (src/fields.ts `sentenceOf`), but the rule's sentence-case check splits a
  // hyphenated name, so "Find Z-Report" (the till's Z-Report) cannot pass it.
  'n8n-nodes-base/node-param-operation-option-action-miscased': 'off',
} as const;

/** The rules on parameters; the class-level ones read the sources (`npm run lint`). */
const PARAMETER_RULES = Object.fromEntries(
  Object.entries(n8nNodesBase.configs.nodes!.rules).filter(([rule]) =>
    rule.startsWith('n8n-nodes-base/node-param-'),
  ),
) as Linter.RulesRecord;

const linter = new Linter({ configType: 'flat' });

const problemsOf = (node: { description: object }, name: string) => {
  const literal = inspect(node.description, {
    depth: Infinity,
    maxArrayLength: Infinity,
    maxStringLength: Infinity,
    breakLength: 120,
  });
  const source = `export class ${name} implements INodeType {\n  description: INodeTypeDescription = ${literal};\n}\n`;
  return linter
    .verify(
      source,
      [
        {
          files: ['**/*.ts'],
          languageOptions: { parser: tseslint.parser as Linter.Parser },
          plugins: { 'n8n-nodes-base': n8nNodesBase },
          rules: { ...PARAMETER_RULES, ...APP_TEXTS },
        },
      ],
      `nodes/${name}/${name}.node.ts`,
    )
    .map((m) => `${m.ruleId}: ${m.message}`);
};

describe("n8n's node rules over the descriptions n8n loads", () => {
  it.each([
    ['ClinicCashier', new ClinicCashier()],
    ['ClinicCashierTrigger', new ClinicCashierTrigger()],
    ['ClinicCashierStartingSoonTrigger', new ClinicCashierStartingSoonTrigger()],
  ])('%s passes', (name, node) => {
    expect(problemsOf(node, name)).toEqual([]);
  });

  it('finds a problem in a description that breaks a rule', () => {
    const node = new ClinicCashierTrigger();
    const event = node.description.properties[0]!;
    const broken = { description: { ...node.description, properties: [{ ...event, required: false }] } };
    expect(problemsOf(broken, 'ClinicCashierTrigger')).toEqual([
      'n8n-nodes-base/node-param-required-false: Remove superfluous property [autofixable]',
    ]);
  });
});
