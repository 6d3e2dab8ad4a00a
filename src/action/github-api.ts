/** The REST API calls of the comment workflow, by hand with fetch: comments, labels, runs, artifacts, statuses. */
export class GitHubApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly rateLimited = false,
  ) {
    super(message);
    this.name = 'GitHubApiError';
  }
}

/** Attempts per request: server errors (5xx), 429 and rate limits are retried with backoff. */
const ATTEMPTS = 3;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the comment workflow reads of the gate's run: its conclusion, commit and, for one job, that job's conclusion. */
export interface GateRun {
  id: number;
  conclusion: string | null;
  headSha: string;
  htmlUrl: string | null;
  /** The workflow file the run ran (`.github/workflows/mcp-gate.yml`), as the API says. */
  path: string | null;
}

/** The issue-comments API of one repository, and the few run, pull and status calls the comment workflow makes. */
export class CommentsApi {
  constructor(
    private readonly base: string,
    private readonly repository: string,
    private readonly token: string,
    /** Per request; `MCPGATE_GITHUB_TIMEOUT_MS` sets it (tests use a short one). */
    private readonly timeoutMs = 20_000,
  ) {}

  static fromEnv(env: NodeJS.ProcessEnv, token: string): CommentsApi | null {
    if (!env.GITHUB_REPOSITORY || !token) return null;
    const timeout = Number(env.MCPGATE_GITHUB_TIMEOUT_MS);
    return new CommentsApi(
      env.GITHUB_API_URL ?? 'https://api.github.com',
      env.GITHUB_REPOSITORY,
      token,
      Number.isFinite(timeout) && timeout > 0 ? timeout : undefined,
    );
  }

  /**
   * Creates the comment, or updates the gate's own: the first one that carries `marker` (or one of
   * `legacyMarkers`) and was written by the token's identity. A comment anyone else wrote is never
   * edited, whatever it carries, so a PR author who plants the marker gets a new comment beside
   * theirs. One comment per PR and key, kept current, instead of one more per push.
   */
  async upsert(issue: number, markers: string[], body: string): Promise<{ action: 'created' | 'updated'; url: string; id: number }> {
    const existing = await this.find(issue, markers, await this.identity());
    const result = existing
      ? await this.call<{ html_url: string; id: number }>('PATCH', `/repos/${this.repository}/issues/comments/${existing}`, { body })
      : await this.call<{ html_url: string; id: number }>('POST', `/repos/${this.repository}/issues/${issue}/comments`, { body });
    return { action: existing ? 'updated' : 'created', url: result.html_url, id: result.id ?? existing ?? 0 };
  }

  /** The labels on the pull request now (not the event payload's, which a re-run repeats). */
  async labels(issue: number): Promise<string[]> {
    const labels = await this.call<{ name: string }[]>('GET', `/repos/${this.repository}/issues/${issue}/labels?per_page=100`);
    return labels.map((l) => l.name);
  }

  /** Who last added `label` to the issue (its `labeled` events, every page), or null when no event says. */
  async labeledBy(issue: number, label: string): Promise<string | null> {
    let actor: string | null = null;
    let path: string | null = `/repos/${this.repository}/issues/${issue}/events?per_page=100`;
    for (let page = 0; path && page < 50; page++) {
      const {
        data,
        next,
      }: { data: { event?: string; label?: { name?: string }; actor?: { login?: string } | null }[]; next: string | null } =
        await this.request('GET', path);
      for (const e of data) if (e.event === 'labeled' && e.label?.name === label) actor = e.actor?.login ?? null;
      path = next;
    }
    return actor;
  }

  /** A user's role on the repository (`admin`, `maintain`, `write`, `triage`, `read`, a custom role), or null when they have none. */
  async roleOf(login: string): Promise<string | null> {
    try {
      const found = await this.call<{ permission?: string; role_name?: string }>(
        'GET',
        `/repos/${this.repository}/collaborators/${encodeURIComponent(login)}/permission`,
      );
      return found.role_name ?? found.permission ?? null;
    } catch (error) {
      if (error instanceof GitHubApiError && error.status === 404) return null;
      throw error;
    }
  }

  /** A workflow run, read from the API (not the event payload): its conclusion is the gate's. */
  async run(id: number): Promise<GateRun> {
    const run = await this.call<{ id: number; conclusion: string | null; head_sha: string; html_url?: string; path?: string }>(
      'GET',
      `/repos/${this.repository}/actions/runs/${id}`,
    );
    return { id: run.id, conclusion: run.conclusion, headSha: run.head_sha, htmlUrl: run.html_url ?? null, path: run.path ?? null };
  }

  /**
   * The newest completed run of the workflow file `file` (its name under .github/workflows) on a
   * pull request at `sha`, or null when none has finished.
   */
  async lastGateRun(file: string, sha: string): Promise<number | null> {
    const { workflow_runs: runs } = await this.call<{ workflow_runs: { id: number; status?: string; run_number?: number }[] }>(
      'GET',
      `/repos/${this.repository}/actions/workflows/${encodeURIComponent(file)}/runs?event=pull_request&head_sha=${encodeURIComponent(sha)}&per_page=20`,
    );
    const done = runs.filter((r) => r.status === 'completed').sort((a, b) => (b.run_number ?? 0) - (a.run_number ?? 0));
    return done[0]?.id ?? null;
  }

  /** The artifact of a run named `name` that has not expired: its download URL and size, or null. */
  async artifactOf(runId: number, name: string): Promise<{ url: string; bytes: number } | null> {
    const { artifacts } = await this.call<{
      artifacts: { name: string; expired?: boolean; archive_download_url: string; size_in_bytes: number }[];
    }>('GET', `/repos/${this.repository}/actions/runs/${runId}/artifacts?name=${encodeURIComponent(name)}&per_page=100`);
    const found = artifacts.find((a) => a.name === name && !a.expired);
    return found ? { url: found.archive_download_url, bytes: found.size_in_bytes } : null;
  }

  /**
   * The bytes at a URL of this API (an artifact's zip; GitHub redirects it to storage, and fetch
   * drops the token on a redirect to another origin), refused past `maxBytes` as they arrive.
   */
  async download(url: string, maxBytes: number): Promise<Buffer> {
    if (!url.startsWith(`${this.base}/`)) throw new Error(`${url} is not on ${this.base}`);
    const response = await fetch(url, {
      headers: { authorization: `Bearer ${this.token}`, 'user-agent': 'mcp-gate', 'x-github-api-version': '2022-11-28' },
      signal: AbortSignal.timeout(this.timeoutMs * 3),
    });
    if (!response.ok || !response.body) throw new GitHubApiError(response.status, `GET ${url}: HTTP ${response.status}`);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      size += (chunk as Uint8Array).length;
      if (size > maxBytes) throw new Error(`the artifact is past ${maxBytes} bytes`);
      chunks.push(Buffer.from(chunk as Uint8Array));
    }
    return Buffer.concat(chunks);
  }

  /** The blob SHA of a file at `ref` (the default branch when null), or null when there is no such file (404). */
  async blobAt(path: string, ref: string | null): Promise<string | null> {
    const query = ref ? `?ref=${encodeURIComponent(ref)}` : '';
    const file = path.split('/').map(encodeURIComponent).join('/');
    try {
      const found = await this.call<{ type?: string; sha?: string }>('GET', `/repos/${this.repository}/contents/${file}${query}`);
      return found.type === 'file' && typeof found.sha === 'string' ? found.sha : null;
    } catch (error) {
      if (error instanceof GitHubApiError && error.status === 404) return null;
      throw error;
    }
  }

  /** The conclusion of the run's job named `name` (the jobs API), or undefined when no job has that name. */
  async jobConclusion(runId: number, name: string): Promise<string | null | undefined> {
    const { jobs } = await this.call<{ jobs: { name: string; conclusion: string | null }[] }>(
      'GET',
      `/repos/${this.repository}/actions/runs/${runId}/jobs?per_page=100`,
    );
    const job = jobs.find((j) => j.name === name);
    return job ? job.conclusion : undefined;
  }

  /**
   * The open pull requests whose head is `owner:branch` at `sha`. A run of a fork's pull request
   * carries no `pull_requests` in its workflow_run payload; this finds it, and the head commit
   * check keeps a branch's other pull requests (or a newer push) out.
   */
  async pullsAt(owner: string, branch: string, sha: string): Promise<{ number: number; fromFork: boolean }[]> {
    const head = encodeURIComponent(`${owner}:${branch}`);
    const pulls = await this.call<{ number: number; head: { sha: string; repo?: { full_name?: string } | null } }[]>(
      'GET',
      `/repos/${this.repository}/pulls?state=open&head=${head}&per_page=100`,
    );
    return pulls.filter((p) => p.head.sha === sha).map((p) => ({ number: p.number, fromFork: p.head.repo?.full_name !== this.repository }));
  }

  /** A commit status on the pull request's head: what branch protection can require. */
  async setStatus(
    sha: string,
    status: { state: 'success' | 'failure' | 'error'; context: string; description: string; targetUrl?: string },
  ) {
    await this.call('POST', `/repos/${this.repository}/statuses/${sha}`, {
      state: status.state,
      context: status.context,
      description: status.description.slice(0, 140),
      ...(status.targetUrl && { target_url: status.targetUrl }),
    });
  }

  /** The body of the gate's own comment (see upsert), or null. */
  async ownComment(issue: number, markers: string[]): Promise<string | null> {
    return (await this.findComment(issue, markers, await this.identity()))?.body ?? null;
  }

  /** Replaces the body of a comment the gate found or made (the short fallback when a full body is refused). */
  async replace(id: number, body: string): Promise<void> {
    await this.call('PATCH', `/repos/${this.repository}/issues/comments/${id}`, { body });
  }

  /** The commit statuses on `sha`, newest first, with who wrote each (every page). */
  async statuses(sha: string): Promise<{ context: string; description: string; creator: string | null }[]> {
    const all: { context: string; description: string; creator: string | null }[] = [];
    let path: string | null = `/repos/${this.repository}/commits/${sha}/statuses?per_page=100`;
    for (let page = 0; path && page < 20; page++) {
      const {
        data,
        next,
      }: { data: { context?: string; description?: string | null; creator?: { login?: string } | null }[]; next: string | null } =
        await this.request('GET', path);
      for (const s of data) all.push({ context: s.context ?? '', description: s.description ?? '', creator: s.creator?.login ?? null });
      path = next;
    }
    return all;
  }

  private login: Promise<string> | null = null;

  /**
   * Who the token writes as. A personal token can ask (`GET /user`); the workflow's GITHUB_TOKEN
   * cannot (403), and writes as `github-actions[bot]`. Asked once.
   */
  identity(): Promise<string> {
    this.login ??= this.call<{ login: string }>('GET', '/user').then(
      (user) => user.login,
      (error: unknown) => {
        if (error instanceof GitHubApiError && [401, 403, 404].includes(error.status)) return 'github-actions[bot]';
        throw error;
      },
    );
    return this.login;
  }

  private async find(issue: number, markers: string[], author: string): Promise<number | null> {
    return (await this.findComment(issue, markers, author))?.id ?? null;
  }

  /** The first comment by `author` that starts with one of `markers`, through every page (the Link header's `next`). */
  private async findComment(issue: number, markers: string[], author: string): Promise<{ id: number; body?: string } | null> {
    let path: string | null = `/repos/${this.repository}/issues/${issue}/comments?per_page=100`;
    for (let page = 0; path && page < 50; page++) {
      const { data, next }: { data: { id: number; body?: string; user?: { login?: string } | null }[]; next: string | null } =
        await this.request('GET', path);
      const mine = data.find((c) => c.user?.login === author && markers.some((m) => c.body?.startsWith(m)));
      if (mine) return mine;
      path = next;
    }
    return null;
  }

  private async call<T>(method: string, path: string, body?: object): Promise<T> {
    return (await this.request<T>(method, path, body)).data;
  }

  /** One request, retried on 5xx and rate limits; `next` is the Link header's next page, as a path on this API. */
  private async request<T>(method: string, path: string, body?: object): Promise<{ data: T; next: string | null }> {
    for (let attempt = 1; ; attempt++) {
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
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      if (response.ok) return { data: (await response.json()) as T, next: this.nextPage(response.headers.get('link')) };
      const detail = await response.text().catch(() => '');
      // GitHub says "rate limit" with 429, or with 403 and no requests left (the primary limit).
      const rateLimited =
        response.status === 429 ||
        (response.status === 403 && (response.headers.get('x-ratelimit-remaining') === '0' || /rate limit/i.test(detail)));
      const retryable = rateLimited || response.status >= 500;
      if (!retryable || attempt >= ATTEMPTS) {
        throw new GitHubApiError(
          response.status,
          `${method} ${path}: HTTP ${response.status}${rateLimited ? ' (rate limited)' : ''} ${detail.slice(0, 200)}`,
          rateLimited,
        );
      }
      const after = Number(response.headers.get('retry-after'));
      await sleep(Number.isFinite(after) && after > 0 ? Math.min(after, 10) * 1000 : 500 * 2 ** (attempt - 1));
    }
  }

  /** The `rel="next"` URL of a Link header, when it is on this API (a page link elsewhere is not followed). */
  private nextPage(link: string | null): string | null {
    const next = link
      ?.split(',')
      .map((part) => /<([^>]+)>\s*;\s*rel="next"/.exec(part)?.[1])
      .find(Boolean);
    return next?.startsWith(this.base) ? next.slice(this.base.length) : null;
  }
}
