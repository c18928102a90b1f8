/*
 * `npx tsx scripts/check-n8n-publish.ts`: whether n8n-nodes-clinic-cashier may be published, run by
 * .github/workflows/publish-n8n-nodes.yml after the build and before `npm publish`. It refuses while package.json
 * is private or still holds the vendor's placeholders (VENDOR-FILL-IN), while the licence is UNLICENSED, when the tag
 * does not name the package's version, when the repository is not the one the workflow runs in (npm's provenance
 * statement ties the package to it), or when a node or credential file n8n lists is missing from the build.
 */
import fs from 'node:fs';
import path from 'node:path';

/** What the vendor must replace in the package's package.json: owner, repository, author. */
export const PLACEHOLDER = 'VENDOR-FILL-IN';

export const PACKAGE_DIR = path.resolve(__dirname, '..', 'n8n-nodes-clinic-cashier');

/** The tag the workflow publishes on: the prefix and the package's version. */
export const TAG_PREFIX = 'n8n-nodes-v';

export interface PackageJson {
  name?: string;
  version?: string;
  private?: boolean;
  license?: string;
  keywords?: string[];
  repository?: string | { url?: string };
  publishConfig?: { provenance?: boolean; access?: string };
  dependencies?: Record<string, string>;
  n8n?: { nodes?: string[]; credentials?: string[] };
  [key: string]: unknown;
}

export interface PublishContext {
  /** The git tag being published (`GITHUB_REF_NAME`), when there is one. */
  tag?: string;
  /** `owner/name` of the repository the workflow runs in (`GITHUB_REPOSITORY`), when known. */
  githubRepository?: string;
  /** Whether a file of the package exists (paths relative to the package folder). */
  exists: (file: string) => boolean;
}

const repositoryUrl = (pkg: PackageJson) =>
  typeof pkg.repository === 'string' ? pkg.repository : (pkg.repository?.url ?? '');

/** `owner/name` of a GitHub repository URL (`git+https://github.com/owner/name.git` and the like). */
const githubRepositoryOf = (url: string) => /github\.com[/:]([^/]+\/[^/]+?)(?:\.git)?\/?$/i.exec(url)?.[1];

/** The reasons the package may not be published, none when it may. */
export const publishProblems = (pkg: PackageJson, ctx: PublishContext): string[] => {
  const problems: string[] = [];
  if (pkg.private) {
    problems.push('package.json has "private": true: remove it once the vendor\'s fields are filled in');
  }
  if (JSON.stringify(pkg).includes(PLACEHOLDER)) {
    problems.push(`package.json still holds ${PLACEHOLDER} placeholders (author, homepage, repository)`);
  }
  if (!pkg.license || pkg.license === 'UNLICENSED') {
    problems.push('package.json has no licence: set "license" to the SPDX id the vendor chooses');
  }
  if (!/^(@[^/]+\/)?n8n-nodes-/.test(pkg.name ?? '')) {
    problems.push(`the package name ${pkg.name} does not start with n8n-nodes- (or @scope/n8n-nodes-)`);
  }
  if (!pkg.keywords?.includes('n8n-community-node-package')) {
    problems.push('package.json keywords lack n8n-community-node-package');
  }
  if (pkg.publishConfig?.provenance !== true) {
    problems.push('package.json lacks "publishConfig": { "provenance": true }');
  }
  if (Object.keys(pkg.dependencies ?? {}).length) {
    problems.push(`the package has runtime dependencies (${Object.keys(pkg.dependencies!).join(', ')})`);
  }
  const repo = githubRepositoryOf(repositoryUrl(pkg));
  if (!repo) {
    problems.push('package.json "repository" is not a GitHub repository URL');
  } else if (ctx.githubRepository && repo.toLowerCase() !== ctx.githubRepository.toLowerCase()) {
    problems.push(
      `package.json "repository" names ${repo}, but the workflow runs in ${ctx.githubRepository}`,
    );
  }
  if (ctx.tag !== undefined && ctx.tag !== `${TAG_PREFIX}${pkg.version}`) {
    problems.push(`the tag ${ctx.tag} does not name the package's version (${TAG_PREFIX}${pkg.version})`);
  }
  const listed = [...(pkg.n8n?.nodes ?? []), ...(pkg.n8n?.credentials ?? [])];
  if (!pkg.n8n?.nodes?.length) problems.push('package.json lists no nodes under "n8n"');
  for (const file of listed.filter((f) => !ctx.exists(f))) {
    problems.push(`${file} is listed under "n8n" but missing: build the package first`);
  }
  return problems;
};

if (require.main === module) {
  const pkg = JSON.parse(fs.readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8')) as PackageJson;
  const problems = publishProblems(pkg, {
    tag: process.env.GITHUB_REF_TYPE === 'tag' ? process.env.GITHUB_REF_NAME : undefined,
    githubRepository: process.env.GITHUB_REPOSITORY,
    exists: (file) => fs.existsSync(path.join(PACKAGE_DIR, file)),
  });
  if (problems.length) {
    console.error(
      `${pkg.name}@${pkg.version} must not be published yet:\n${problems.map((p) => `- ${p}`).join('\n')}`,
    );
    process.exit(1);
  }
  console.log(`${pkg.name}@${pkg.version} may be published`);
}
