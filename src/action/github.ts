import { appendFileSync, readFileSync } from 'node:fs';

/**
 * The little of GitHub Actions the gate needs, by hand: inputs, outputs, the job summary and the PR
 * from the event payload (the REST API the comment workflow calls is github-api.ts). Nothing here
 * knows about gating; main.ts does.
 */
export interface PullRequest {
  number: number;
  labels: string[];
  /** True when the head repository is not the base repository: the token is read-only then. */
  fromFork: boolean;
  /** The commit the pull request is based on, for the policy check. */
  baseSha: string | null;
}

export function input(env: NodeJS.ProcessEnv, name: string, fallback = ''): string {
  return (env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim() || fallback;
}

/** The pull request this run is for, from `$GITHUB_EVENT_PATH`; null outside pull_request events. */
export function pullRequestOf(env: NodeJS.ProcessEnv): PullRequest | null {
  const path = env.GITHUB_EVENT_PATH;
  if (!path) return null;
  const event = JSON.parse(readFileSync(path, 'utf8')) as {
    pull_request?: {
      number: number;
      labels?: { name: string }[];
      head?: { repo?: { full_name?: string } | null };
      base?: { sha?: string; repo?: { full_name?: string } };
    };
  };
  const pr = event.pull_request;
  if (!pr) return null;
  return {
    number: pr.number,
    labels: (pr.labels ?? []).map((l) => l.name),
    fromFork: Boolean(pr.head?.repo?.full_name && pr.base?.repo?.full_name && pr.head.repo.full_name !== pr.base.repo.full_name),
    baseSha: typeof pr.base?.sha === 'string' ? pr.base.sha : null,
  };
}

/** `name=value` lines for `$GITHUB_OUTPUT` (values are single-line here). */
export function setOutputs(env: NodeJS.ProcessEnv, outputs: Record<string, string | number>): void {
  if (!env.GITHUB_OUTPUT) return;
  appendFileSync(
    env.GITHUB_OUTPUT,
    Object.entries(outputs)
      .map(([k, v]) => `${k}=${String(v).replace(/\r?\n/g, ' ')}\n`)
      .join(''),
  );
}

export function appendSummary(env: NodeJS.ProcessEnv, markdown: string): boolean {
  if (!env.GITHUB_STEP_SUMMARY) return false;
  appendFileSync(env.GITHUB_STEP_SUMMARY, markdown.endsWith('\n') ? markdown : `${markdown}\n`);
  return true;
}
