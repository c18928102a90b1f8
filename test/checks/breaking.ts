import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  cloneDefinition,
  loadDefinition,
  staticFields,
  type AppDefinition,
  type FieldDef,
} from '../../scripts/checks/definition';
import type { Rule } from '../../scripts/checks/reading';
import { App } from '../helpers';

/*
 * What the rule suites share: the app's definition.json form, ways to reach into a copy of it, and the two halves of
 * every rule's test. A rule must pass on the app, and fail on a copy broken exactly where it guards, so a rule that
 * stopped checking anything would fail too.
 */

export const definition = loadDefinition(App);

/** Breaks a copy of the definition and returns a fragment the rule's problems must name. */
export type Breaker = (d: AppDefinition) => string;

type Kind = 'triggers' | 'creates' | 'searches';

export const op = (d: AppDefinition, kind: Kind, key: string) => {
  const action = d[kind][key];
  if (!action) throw new Error(`the definition has no ${kind}.${key}`);
  return action;
};

export const input = (d: AppDefinition, kind: Kind, key: string, path: string) => {
  const [parent, child] = path.split('[]');
  let field = staticFields(op(d, kind, key).operation.inputFields).find((f) => f.key === parent);
  if (child) field = staticFields(field?.children).find((f) => f.key === child);
  if (!field) throw new Error(`${kind}.${key} has no input ${path}`);
  return field;
};

export const authField = (d: AppDefinition, key: string): FieldDef => {
  const field = d.authentication?.fields?.find((f) => f.key === key);
  if (!field) throw new Error(`no auth field ${key}`);
  return field;
};

export const sample = (d: AppDefinition, kind: Kind, key: string) => op(d, kind, key).operation.sample!;

/**
 * The rules pass on the app's definition, each catches every way given to break it, and `enforced` lists them:
 * removing a rule is a decision, made in that list too.
 */
export const describeRules = (
  rules: readonly Rule[],
  enforced: string[],
  breakers: Record<string, Record<string, Breaker>>,
) => {
  describe('on the app definition', () => {
    it('enforces the listed rules, each once', () => {
      expect(rules.map((r) => r.id)).toEqual(enforced);
    });

    it.each(rules.map((rule) => [`${rule.id} ${rule.title}`, rule] as const))('%s', (_name, rule) => {
      expect(rule.check(definition)).toEqual([]);
    });

    it("each has its row in docs/publishing.md's table of checks", () => {
      const text = readFileSync(join(__dirname, '../../docs/publishing.md'), 'utf8');
      const listed = [...text.matchAll(/^\| ([A-Z][A-Z0-9-]*(?:, [A-Z][A-Z0-9-]*)*) +\|/gm)].flatMap((m) =>
        m[1]!.split(', '),
      );
      expect(listed).toEqual(expect.arrayContaining(enforced));
    });
  });

  describe('each fails on a definition broken where it guards', () => {
    it('every rule has at least one way to break it', () => {
      expect(Object.keys(breakers).sort()).toEqual(rules.map((r) => r.id).sort());
    });

    const cases = rules.flatMap((rule) =>
      Object.entries(breakers[rule.id] ?? {}).map(
        ([what, breaker]) => [rule.id, what, rule, breaker] as const,
      ),
    );

    it.each(cases)('%s catches %s', (_id, _what, rule, breaker) => {
      const broken = cloneDefinition(definition);
      const fragment = breaker(broken);
      expect(rule.check(broken)).toEqual(expect.arrayContaining([expect.stringContaining(fragment)]));
    });

    it('leaves the real definition untouched', () => {
      expect(loadDefinition(App)).toEqual(definition);
    });
  });
};
