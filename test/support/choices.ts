/** What a definition's steps are, as far as finding a field's `choices.perform` needs. */
type Steps = Partial<
  Record<'triggers' | 'creates' | 'searches', Record<string, { operation: { inputFields?: unknown } }>>
>;
type Field = { key: string; choices?: { perform?: unknown }; children?: Field[] };

/**
 * Where the `choices.perform` of input `field` (`variants[]variant_id` for a line-item child) of the trigger,
 * action or search `key` is, named as Zapier and `zapier-platform invoke` name it to run it:
 * `triggers.appointment_created.operation.inputFields.1.choices.perform`.
 */
export const choicesPath = (app: Steps, key: string, field: string): string => {
  const kind = (['triggers', 'creates', 'searches'] as const).find((k) => app[k]?.[key]);
  const [parent, child] = field.split('[]');
  const top = (kind ? (app[kind]![key]!.operation.inputFields ?? []) : []) as Field[];
  const i = top.findIndex((f) => f.key === parent);
  const children = top[i]?.children ?? [];
  const j = child ? children.findIndex((f) => f.key === child) : -1;
  const found = child ? children[j] : top[i];
  if (typeof found?.choices?.perform !== 'function')
    throw new Error(`${key}.${field} has no choices.perform`);
  return `${kind}.${key}.operation.inputFields.${i}${child ? `.children.${j}` : ''}.choices.perform`;
};
