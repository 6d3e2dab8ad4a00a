/** The REST API calls of the comment workflow: comments, labels, runs, artifacts, statuses (the transport is github-rest.ts). */
import { GitHubApiError, GitHubRest } from './github-rest.js';

export { GitHubApiError } from './github-rest.js';

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
  private readonly rest: GitHubRest;

  constructor(
    base: string,
    private readonly repository: string,
    token: string,
    /** Per request; `MCPGATE_GITHUB_TIMEOUT_MS` sets it (tests use a short one). */
    timeoutMs?: number,
  ) {
    this.rest = new GitHubRest(base, token, timeoutMs);
  }

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
      ? await this.rest.call<{ html_url: string; id: number }>('PATCH', `/repos/${this.repository}/issues/comments/${existing}`, { body })
      : await this.rest.call<{ html_url: string; id: number }>('POST', `/repos/${this.repository}/issues/${issue}/comments`, { body });
    return { action: existing ? 'updated' : 'created', url: result.html_url, id: result.id ?? existing ?? 0 };
  }

  /** The labels on the pull request now (not the event payload's, which a re-run repeats). */
  async labels(issue: number): Promise<string[]> {
    const labels = await this.rest.call<{ name: string }[]>('GET', `/repos/${this.repository}/issues/${issue}/labels?per_page=100`);
    return labels.map((l) => l.name);
  }

  /** Who last added `label` to the issue (its `labeled` events, every page), or null when no event says. */
  async labeledBy(issue: number, label: string): Promise<string | null> {
    let actor: string | null = null;
    type Event = { event?: string; label?: { name?: string }; actor?: { login?: string } | null };
    for await (const events of this.rest.pages<Event>(`/repos/${this.repository}/issues/${issue}/events?per_page=100`, 50))
      for (const e of events) if (e.event === 'labeled' && e.label?.name === label) actor = e.actor?.login ?? null;
    return actor;
  }

  /** A user's role on the repository (`admin`, `maintain`, `write`, `triage`, `read`, a custom role), or null when they have none. */
  async roleOf(login: string): Promise<string | null> {
    const found = await this.rest.found<{ permission?: string; role_name?: string }>(
      `/repos/${this.repository}/collaborators/${encodeURIComponent(login)}/permission`,
    );
    return found ? (found.role_name ?? found.permission ?? null) : null;
  }

  /** A workflow run, read from the API (not the event payload): its conclusion is the gate's. */
  async run(id: number): Promise<GateRun> {
    const run = await this.rest.call<{ id: number; conclusion: string | null; head_sha: string; html_url?: string; path?: string }>(
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
    const { workflow_runs: runs } = await this.rest.call<{ workflow_runs: { id: number; status?: string; run_number?: number }[] }>(
      'GET',
      `/repos/${this.repository}/actions/workflows/${encodeURIComponent(file)}/runs?event=pull_request&head_sha=${encodeURIComponent(sha)}&per_page=20`,
    );
    const done = runs.filter((r) => r.status === 'completed').sort((a, b) => (b.run_number ?? 0) - (a.run_number ?? 0));
    return done[0]?.id ?? null;
  }

  /** The artifact of a run named `name` that has not expired: its download URL and size, or null. */
  async artifactOf(runId: number, name: string): Promise<{ url: string; bytes: number } | null> {
    const { artifacts } = await this.rest.call<{
      artifacts: { name: string; expired?: boolean; archive_download_url: string; size_in_bytes: number }[];
    }>('GET', `/repos/${this.repository}/actions/runs/${runId}/artifacts?name=${encodeURIComponent(name)}&per_page=100`);
    const found = artifacts.find((a) => a.name === name && !a.expired);
    return found ? { url: found.archive_download_url, bytes: found.size_in_bytes } : null;
  }

  /** The bytes of an artifact's zip at a URL of this API, refused past `maxBytes` (github-rest.ts). */
  download(url: string, maxBytes: number): Promise<Buffer> {
    return this.rest.download(url, maxBytes);
  }

  /** The blob SHA of a file at `ref` (the default branch when null), or null when there is no such file (404). */
  async blobAt(path: string, ref: string | null): Promise<string | null> {
    const query = ref ? `?ref=${encodeURIComponent(ref)}` : '';
    const file = path.split('/').map(encodeURIComponent).join('/');
    const found = await this.rest.found<{ type?: string; sha?: string }>(`/repos/${this.repository}/contents/${file}${query}`);
    return found?.type === 'file' && typeof found.sha === 'string' ? found.sha : null;
  }

  /** The conclusion of the run's job named `name` (the jobs API), or undefined when no job has that name. */
  async jobConclusion(runId: number, name: string): Promise<string | null | undefined> {
    const { jobs } = await this.rest.call<{ jobs: { name: string; conclusion: string | null }[] }>(
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
    const pulls = await this.rest.call<{ number: number; head: { sha: string; repo?: { full_name?: string } | null } }[]>(
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
    await this.rest.call('POST', `/repos/${this.repository}/statuses/${sha}`, {
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
    await this.rest.call('PATCH', `/repos/${this.repository}/issues/comments/${id}`, { body });
  }

  /** The commit statuses on `sha`, newest first, with who wrote each (every page). */
  async statuses(sha: string): Promise<{ context: string; description: string; creator: string | null }[]> {
    const all: { context: string; description: string; creator: string | null }[] = [];
    type Status = { context?: string; description?: string | null; creator?: { login?: string } | null };
    for await (const page of this.rest.pages<Status>(`/repos/${this.repository}/commits/${sha}/statuses?per_page=100`, 20))
      for (const s of page) all.push({ context: s.context ?? '', description: s.description ?? '', creator: s.creator?.login ?? null });
    return all;
  }

  private login: Promise<string> | null = null;

  /**
   * Who the token writes as. A personal token can ask (`GET /user`); the workflow's GITHUB_TOKEN
   * cannot (403), and writes as `github-actions[bot]`. Asked once.
   */
  identity(): Promise<string> {
    this.login ??= this.rest.call<{ login: string }>('GET', '/user').then(
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
    type Comment = { id: number; body?: string; user?: { login?: string } | null };
    for await (const page of this.rest.pages<Comment>(`/repos/${this.repository}/issues/${issue}/comments?per_page=100`, 50)) {
      const mine = page.find((c) => c.user?.login === author && markers.some((m) => c.body?.startsWith(m)));
      if (mine) return mine;
    }
    return null;
  }
}
