import { execFileSync } from 'node:child_process';
import { stringify } from 'yaml';

// The config `mcp-gate init` writes (init.ts), and what it needs to know to write it.

export const SNAPSHOT = 'contracts/baseline.contract.json';
export const DATASET = 'datasets/starter.cases.yaml';

/** How the candidate is reached, as profile keys. */
export type Source = { from: string } | { command: string; args: string[] };

interface ConfigParts {
  source: Source;
  baseline: Record<string, unknown>;
  pinned: string | null;
  /** The ref a git baseline would be offered with (the clone's default branch), or null outside a clone. */
  gitRef: string | null;
  datasets: boolean;
  schema: string;
}

const yamlValue = (value: unknown): string =>
  stringify(value, { lineWidth: 0, flowCollectionPadding: false, collectionStyle: 'flow' }).trim();

/** The config init writes: each part with a comment of what it is and how to change it. */
export function configText({ source, baseline, pinned, gitRef, datasets, schema }: ConfigParts): string {
  const profileLines = (profile: Record<string, unknown>) => Object.entries(profile).map(([k, v]) => `    ${k}: ${yamlValue(v)}`);
  const baselineComment = pinned
    ? [`  # The released version, ${pinned}, started with npx. Move it to each new release.`]
    : [
        '  # The contract of the server when init ran, as the released baseline. After a release, refresh it:',
        `  #   npx mcp-gate snapshot --profile candidate -o ${SNAPSHOT}`,
      ];
  const candidateComment =
    'from' in source
      ? ['  # The server as the project runs it: command, args and env come from the client config.']
      : pinned
        ? ['  # The version to promote: change its version to gate a new release.']
        : ['  # The server as this branch builds it.'];
  return [
    `# yaml-language-server: $schema=${schema}`,
    '# The contract promotion gate of this MCP server, written by `mcp-gate init`.',
    '#   npx mcp-gate run        exit 0 Promote, 1 Rollback, 2 Hold, 3 could not decide',
    '#   npx mcp-gate validate   checks this file and its datasets without starting a server',
    'version: 1',
    'profiles:',
    ...baselineComment,
    '  baseline:',
    ...profileLines(baseline),
    ...candidateComment,
    '  candidate:',
    ...profileLines(source),
    '    # Tools that are not read-only are never called unless this is true (or a case allows it).',
    '    allowSideEffects: false',
    ...(gitRef
      ? [
          `  # In this git repository the baseline can be the server as it is on ${gitRef} (the merge-base with HEAD),`,
          '  # built once in a worktree and cached by commit (docs/baselines.md). To use it: uncomment it, set the',
          "  # build, and set `baseline: released`. In the Action, leave out `ref` to gate against the pull request's base.",
          '  # released:',
          `  #   git: { ref: ${gitRef}, build: "npm ci && npm run build" }`,
          ...profileLines(source).map((line) => `  #${line.slice(1)}`),
        ]
      : []),
    'baseline: baseline',
    'candidate: candidate',
    ...(datasets
      ? [
          '# Frozen cases recorded from the server (`mcp-gate record`); edit them, and record again to add new tools.',
          'datasets:',
          `  - ${DATASET}`,
        ]
      : ['# No dataset: no tool could be recorded. Write cases, or give arguments: mcp-gate record --args FILE', 'datasets: []']),
    'reports:',
    '  dir: reports',
    '',
  ].join('\n');
}

/** The clone's default branch as a ref (origin/HEAD's target, else the branch checked out), or null outside a clone. */
export function defaultBranch(dir: string): string | null {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    git('rev-parse', '--show-toplevel');
  } catch {
    return null;
  }
  for (const ask of [
    ['rev-parse', '--abbrev-ref', 'origin/HEAD'],
    ['rev-parse', '--abbrev-ref', 'HEAD'],
  ]) {
    try {
      const ref = git(...ask);
      if (ref && ref !== 'HEAD' && ref !== 'origin/HEAD') return ref;
    } catch {
      // no remote, or no commit yet
    }
  }
  return 'origin/main';
}
