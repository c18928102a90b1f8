import fs from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { PACKAGE_DIR, PLACEHOLDER, publishProblems, type PackageJson } from '../../scripts/check-n8n-publish';

const shipped = JSON.parse(fs.readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8')) as PackageJson;

/** The package.json as the vendor would fill it in, for a repository acme/clinic-pos. */
const filled = (): PackageJson => ({
  ...JSON.parse(JSON.stringify(shipped).replaceAll(PLACEHOLDER, 'acme')),
  repository: {
    type: 'git',
    url: 'git+https://github.com/acme/clinic-pos.git',
    directory: 'n8n-nodes-clinic-cashier',
  },
  homepage: 'https://github.com/acme/clinic-pos/tree/main/n8n-nodes-clinic-cashier#readme',
  private: undefined,
  license: 'MIT',
});

const built = { exists: () => true };

describe('check-n8n-publish', () => {
  it('refuses the package as it is in the repository: private, placeholders, no licence', () => {
    const problems = publishProblems(shipped, built);
    expect(problems).toEqual([
      expect.stringContaining('"private": true'),
      expect.stringContaining(`${PLACEHOLDER} placeholders`),
      expect.stringContaining('no licence'),
    ]);
  });

  it('accepts the filled-in package on its version tag in its own repository', () => {
    expect(
      publishProblems(filled(), {
        ...built,
        tag: `n8n-nodes-v${shipped.version}`,
        githubRepository: 'acme/clinic-pos',
      }),
    ).toEqual([]);
  });

  it('refuses a tag of another version and a repository the workflow does not run in', () => {
    expect(
      publishProblems(filled(), { ...built, tag: 'n8n-nodes-v9.9.9', githubRepository: 'other/fork' }),
    ).toEqual([
      'package.json "repository" names acme/clinic-pos, but the workflow runs in other/fork',
      `the tag n8n-nodes-v9.9.9 does not name the package's version (n8n-nodes-v${shipped.version})`,
    ]);
  });

  it('refuses a package without provenance, with a runtime dependency or a wrong name', () => {
    const pkg = { ...filled(), name: 'clinic-nodes', publishConfig: {}, dependencies: { zod: '4.0.0' } };
    expect(publishProblems(pkg, built)).toEqual([
      expect.stringContaining('does not start with n8n-nodes-'),
      expect.stringContaining('provenance'),
      'the package has runtime dependencies (zod)',
    ]);
  });

  it('refuses until every node and credential file n8n lists is built', () => {
    const missing = publishProblems(filled(), { exists: (file) => !file.includes('Trigger') });
    expect(missing).toEqual([
      'dist/nodes/ClinicCashierTrigger/ClinicCashierTrigger.node.js is listed under "n8n" but missing: build the package first',
      'dist/nodes/ClinicCashierStartingSoonTrigger/ClinicCashierStartingSoonTrigger.node.js is listed under "n8n" but missing: build the package first',
    ]);
  });
});

describe('the publishing workflow', () => {
  const workflow = yaml.load(
    fs.readFileSync(path.join(__dirname, '../../.github/workflows/publish-n8n-nodes.yml'), 'utf8'),
  ) as {
    on: { push: { tags: string[] } };
    permissions: Record<string, string>;
    jobs: Record<string, { steps: Array<{ run?: string; uses?: string }> }>;
  };
  const runs = Object.values(workflow.jobs).flatMap((job) =>
    job.steps.map((step) => step.run ?? step.uses ?? ''),
  );
  const at = (command: string) => runs.findIndex((run) => run.includes(command));

  it('runs on a version tag with an OIDC token for the provenance statement and read-only contents', () => {
    expect(workflow.on).toEqual({ push: { tags: ['n8n-nodes-v*'] } });
    expect(workflow.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
  });

  it('installs, checks, tests, then publishes the workspace with provenance', () => {
    const order = [
      'npm ci',
      'npm run build -w n8n-nodes-clinic-cashier',
      'scripts/check-n8n-publish.ts',
      'npm test',
      'npm publish --provenance --access public -w n8n-nodes-clinic-cashier',
    ].map(at);
    expect(order).not.toContain(-1);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });
});
