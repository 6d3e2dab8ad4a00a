import { appendFileSync, readFileSync } from 'node:fs';

/**
 * The little of GitHub Actions the gate needs, by hand: inputs, outputs, the job summary, the PR
 * from the event payload, and the issue-comments REST API (with fetch). Nothing here knows about
 * gating; main.ts does.
 */
export interface PullRequest {
  number: number;
  labels: string[];
  /** True when the head repository is not the base repository: the token is read-only then. */
  fromFork: boolean;
}

export function input(env: NodeJS.ProcessEnv, name: string, fallback = ''): string {
  return (env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim() || fallback;
}

/** The pull request this run is for, from `$GITHUB_EVENT_PATH`; null outside pull_request events. */
export function pullRequestOf(env: NodeJS.ProcessEnv): PullRequest | null {
  const path = env.GITHUB_EVENT_PATH;
  if (!path) return null;
  const event = JSON.parse(readFileSync(path, 'utf8')) as {
    pull_request?: { number: number; labels?: { name: string }[]; head?: { repo?: { full_name?: string } | null }; base?: { repo?: { full_name?: string } } };
  };
  const pr = event.pull_request;
  if (!pr) return null;
  return {
    number: pr.number,
    labels: (pr.labels ?? []).map((l) => l.name),
    fromFork: Boolean(pr.head?.repo?.full_name && pr.base?.repo?.full_name && pr.head.repo.full_name !== pr.base.repo.full_name),
  };
}

/** `name=value` lines for `$GITHUB_OUTPUT` (values are single-line here). */
export function setOutputs(env: NodeJS.ProcessEnv, outputs: Record<string, string | number>): void {
  if (!env.GITHUB_OUTPUT) return;
  appendFileSync(env.GITHUB_OUTPUT, Object.entries(outputs).map(([k, v]) => `${k}=${String(v).replace(/\r?\n/g, ' ')}\n`).join(''));
}

export function appendSummary(env: NodeJS.ProcessEnv, markdown: string): boolean {
  if (!env.GITHUB_STEP_SUMMARY) return false;
  appendFileSync(env.GITHUB_STEP_SUMMARY, markdown.endsWith('\n') ? markdown : `${markdown}\n`);
  return true;
}

export class GitHubApiError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
    this.name = 'GitHubApiError';
  }
}

/** The issue-comments API of one repository. */
export class CommentsApi {
  constructor(
    private readonly base: string,
    private readonly repository: string,
    private readonly token: string,
  ) {}

  static fromEnv(env: NodeJS.ProcessEnv, token: string): CommentsApi | null {
    if (!env.GITHUB_REPOSITORY || !token) return null;
    return new CommentsApi(env.GITHUB_API_URL ?? 'https://api.github.com', env.GITHUB_REPOSITORY, token);
  }

  /**
   * Creates the comment, or updates the one that carries `marker`: one comment per PR, kept
   * current, instead of one more per push. Returns what it did.
   */
  async upsert(issue: number, marker: string, body: string): Promise<{ action: 'created' | 'updated'; url: string }> {
    const existing = await this.find(issue, marker);
    const result = existing
      ? await this.call<{ html_url: string }>('PATCH', `/repos/${this.repository}/issues/comments/${existing}`, { body })
      : await this.call<{ html_url: string }>('POST', `/repos/${this.repository}/issues/${issue}/comments`, { body });
    return { action: existing ? 'updated' : 'created', url: result.html_url };
  }

  private async find(issue: number, marker: string): Promise<number | null> {
    for (let page = 1; page <= 20; page++) {
      const comments = await this.call<{ id: number; body?: string }[]>('GET', `/repos/${this.repository}/issues/${issue}/comments?per_page=100&page=${page}`);
      const mine = comments.find((c) => c.body?.includes(marker));
      if (mine) return mine.id;
      if (comments.length < 100) return null;
    }
    return null;
  }

  private async call<T>(method: string, path: string, body?: object): Promise<T> {
    const response = await fetch(`${this.base}${path}`, {
      method,
      headers: {
        accept: 'application/vnd.github+json',
        authorization: `Bearer ${this.token}`,
        'x-github-api-version': '2022-11-28',
        'user-agent': 'mcp-gate',
        ...(body && { 'content-type': 'application/json' }),
      },
      ...(body && { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(20_000),
    });
    if (!response.ok) {
      const detail = await response.text().catch(() => '');
      throw new GitHubApiError(response.status, `${method} ${path}: HTTP ${response.status} ${detail.slice(0, 200)}`);
    }
    return (await response.json()) as T;
  }
}
