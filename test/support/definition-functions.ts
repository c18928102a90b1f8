/**
 * Every function of an app definition, by its path, wherever it sits: operation members, dynamic fields, a
 * dropdown's `choices.perform`, line-item children, hydrators, the connection's. The walk reads every member, so a
 * function nested where no one looked is still found. `skip`: paths of members not to walk (the middleware).
 */
export const functionsOf = (
  definition: object,
  skip: readonly string[] = ['beforeRequest', 'afterResponse'],
): Array<[string, unknown]> => {
  const found: Array<[string, unknown]> = [];
  const seen = new Set<unknown>();
  const walk = (value: unknown, path: string) => {
    if (typeof value === 'function') {
      found.push([path, value]);
      return;
    }
    if (!value || typeof value !== 'object' || seen.has(value)) return;
    seen.add(value);
    for (const [key, member] of Object.entries(value)) {
      const at = path ? `${path}.${key}` : key;
      if (!skip.includes(at)) walk(member, at);
    }
  };
  walk(definition, '');
  return found;
};
