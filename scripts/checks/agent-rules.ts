import { inputFieldsOf, operationsOf, staticFields, type AppDefinition } from './definition';

/*
 * What an AI agent needs to use an action or search safely. Every published Zapier integration is also a tool in
 * Zapier MCP and the Zapier SDK (searches as read tools, actions as write tools), and the agent fills the inputs
 * from the definition alone: the description says what the step does, when to use it and what comes back; each
 * input has a type and an example; an action with many inputs groups them. These are the house's rules (AGENT-*),
 * run offline beside Zapier's.
 */

export interface AgentRule {
  id: string;
  title: string;
  check(definition: AppDefinition): string[];
}

const EXAMPLE = /\be\.g\.|\bfor example\b/i;

/** More inputs than this, and an action's form is easier to read, for a person or an agent, in groups. */
export const GROUP_ABOVE = 7;

const steps = (d: AppDefinition) => operationsOf(d, ['creates', 'searches']);

export const AGENT_RULES: readonly AgentRule[] = [
  {
    id: 'AGENT-DESCRIPTION',
    title:
      'every action and search says what it does, when to use it ("Use it …") and what it returns ("Returns …")',
    check: (d) =>
      steps(d).flatMap(({ where, action }) => {
        const text = action.display?.description ?? '';
        const missing = [
          /^[A-Z][a-z]+s\b/.test(text)
            ? ''
            : 'what it does (a sentence opening with its verb, e.g. "Finds …")',
          /\bUse it\b/.test(text) ? '' : 'when to use it ("Use it …")',
          /\bReturns\b/.test(text) ? '' : 'what it returns ("Returns …")',
        ].filter(Boolean);
        return missing.length ? [`${where}: its description does not say ${missing.join(', nor ')}`] : [];
      }),
  },
  {
    id: 'AGENT-INPUT-TYPE',
    title: 'every input of an action or search declares its type (line items: each child)',
    check: (d) =>
      inputFieldsOf(d, ['creates', 'searches'])
        .filter(({ field }) => !field.children && !field.type)
        .map(({ where }) => `${where}: no type`),
  },
  {
    id: 'AGENT-INPUT-EXAMPLE',
    title:
      'every input shows an example: a placeholder, "e.g." in its help text, or choices to pick from (yes/no needs none)',
    check: (d) =>
      inputFieldsOf(d, ['creates', 'searches'])
        .filter(({ field }) => !field.children && field.type !== 'boolean')
        .filter(({ field }) => !field.placeholder && !field.choices && !EXAMPLE.test(field.helpText ?? ''))
        .map(({ where }) => `${where}: no example (a placeholder, or "e.g." in its help text)`),
  },
  {
    id: 'AGENT-GROUPS',
    title: `an action with more than ${GROUP_ABOVE} inputs has inputFieldGroups, and an action with groups puts every input in one`,
    check: (d) =>
      operationsOf(d, ['creates']).flatMap(({ where, action }) => {
        const fields = staticFields(action.operation.inputFields);
        const groups = new Set(
          ((action.operation as { inputFieldGroups?: Array<{ key: string }> }).inputFieldGroups ?? []).map(
            (g) => g.key,
          ),
        );
        if (!groups.size) {
          return fields.length > GROUP_ABOVE
            ? [`${where}: ${fields.length} inputs and no inputFieldGroups`]
            : [];
        }
        // Grouped at all, then wholly: an input outside every group shows apart from its neighbours.
        return fields
          .filter((f) => !groups.has((f as { group?: string }).group ?? ''))
          .map((f) => `${where}.inputFields.${f.key}: in no group of the action`);
      }),
  },
];

export const agentProblems = (definition: AppDefinition): Record<string, string[]> =>
  Object.fromEntries(AGENT_RULES.map((rule) => [rule.id, rule.check(definition)]));
