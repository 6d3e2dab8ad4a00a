import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { crc32, deflateRawSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT, scratchProject, snapshotBaseline } from '../helpers/cli.js';
import { STICKY_MARKER } from '../../src/report/markdown.js';
import { render } from '../../src/report/formats.js';
import type { Report } from '../../src/report/types.js';

/**
 * The action's launcher (bin/mcp-gate-action.js, what action.yml runs), run as a process the way
 * the runner runs it: temp files for GITHUB_OUTPUT and GITHUB_STEP_SUMMARY, an event payload, and
 * a local HTTP server standing in for the GitHub API (comments, labels, runs, jobs, pulls and
 * statuses). Two workflows: the gate job (no token, no API) leaves its hand-off in `artifact-dir`;
 * a fake artifact store copies that folder where actions/download-artifact would put it, and the
 * comment workflow (`comment`, on a workflow_run payload) posts it.
 */
interface Comment {
  id: number;
  body: string;
  user?: { login: string };
}
/** The fake API's state: `failNext` answers the next requests with these statuses; bodies over `maxBody` get 422. */
const api = {
  comments: [] as Comment[],
  calls: [] as string[],
  deny: false,
  /** Refuse every commit status (a token without `statuses: write`). */
  denyStatuses: false,
  failNext: [] as number[],
  maxBody: 65_536,
  labels: [] as string[],
  /** The pull request's `labeled` events; null: each label in `labels`, added by `maintainer`. */
  labelEvents: null as { event: string; label: { name: string }; actor: { login: string } }[] | null,
  /** Repository roles by login (the collaborator permission API); anyone else is not a collaborator (404). */
  roles: new Map([
    ['maintainer', 'maintain'],
    ['owner', 'admin'],
    ['mallory', 'write'],
  ]),
  delayMs: 0,
  /** Workflow runs by id: the gate's conclusion and commit, as the API reports them. */
  runs: new Map<
    number,
    { conclusion: string | null; head_sha: string; path?: string; jobs?: { name: string; conclusion: string | null }[] }
  >(),
  /** Files of the repository, by path: their blob on the default branch, and (if it differs) at the head commit. */
  files: new Map<string, { base: string; head?: string }>([['.github/workflows/mcp-gate.yml', { base: 'blob-gate-1' }]]),
  /** Each run's artifact `mcp-gate-report`, as the API serves it: a zip. */
  artifacts: new Map<number, Buffer>(),
  /** Open pull requests, for the fork lookup (`pulls?head=owner:branch`). */
  pulls: [] as { number: number; head: { sha: string; ref: string; repo: { full_name: string; owner: { login: string } } } }[],
  /** Commit statuses, newest last; the fake's POST records the token's identity as the creator. */
  statuses: [] as { sha: string; state: string; context: string; description: string; creator?: { login: string } }[],
};
/** A pull request with no comment and no status yet, carrying `labels` (the rest of the fake as the test before left it). */
function freshPullRequest(labels: string[] = []): void {
  api.comments = [];
  api.statuses = [];
  api.labels = labels;
}
const BOT = { login: 'github-actions[bot]' };
let server: Server;
let apiUrl = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    let gone = false;
    res.on('close', () => (gone = !res.writableEnded));
    req.on('end', () => {
      // Taken when the request arrives: a delayed answer to a client that gave up must not eat a later test's failures.
      const fail = api.failNext.shift();
      setTimeout(() => answer(fail), api.delayMs);
    });
    const answer = (fail: number | undefined) => {
      if (gone) return; // the client timed out and went away
      api.calls.push(`${req.method} ${req.url?.split('?')[0]}`);
      // Where GitHub redirects an artifact's download: storage that takes no token.
      const stored = /^\/storage\/(\d+)\.zip$/.exec(req.url ?? '');
      if (req.method === 'GET' && stored) {
        const zip = api.artifacts.get(Number(stored[1]));
        return zip ? res.writeHead(200, { 'content-type': 'application/zip' }).end(zip) : res.writeHead(404).end();
      }
      const send = (status: number, value: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      if (req.headers.authorization !== 'Bearer test-token') return send(401, { message: 'Bad credentials' });
      if (fail === 429)
        return res
          .writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' })
          .end(JSON.stringify({ message: 'API rate limit exceeded' }));
      if (fail) return send(fail, { message: `failing with ${fail}` });
      // The workflow's GITHUB_TOKEN cannot read /user; it writes as github-actions[bot].
      if (req.method === 'GET' && req.url === '/user') return send(403, { message: 'Resource not accessible by integration' });
      if (req.method === 'GET' && /\/repos\/acme\/tools\/issues\/7\/comments$/.test(req.url!.split('?')[0]!)) {
        // 100 a page, the rest behind a Link header, as GitHub pages them.
        const page = Number(new URL(req.url!, 'http://x').searchParams.get('page') ?? 1);
        const more = api.comments.length > page * 100;
        res.writeHead(200, {
          'content-type': 'application/json',
          ...(more && {
            link: `<${apiUrl}/repos/acme/tools/issues/7/comments?per_page=100&page=${page + 1}>; rel="next", <${apiUrl}/repos/acme/tools/issues/7/comments?per_page=100&page=9>; rel="last"`,
          }),
        });
        return res.end(JSON.stringify(api.comments.slice((page - 1) * 100, page * 100)));
      }
      if (req.method === 'GET' && req.url!.split('?')[0] === '/repos/acme/tools/issues/7/events')
        return send(
          200,
          api.labelEvents ?? api.labels.map((name) => ({ event: 'labeled', label: { name }, actor: { login: 'maintainer' } })),
        );
      const permission = /^\/repos\/acme\/tools\/collaborators\/([^/]+)\/permission$/.exec(req.url ?? '');
      if (req.method === 'GET' && permission) {
        const role = api.roles.get(decodeURIComponent(permission[1]!));
        if (!role) return send(404, { message: 'Not Found' });
        const base = role === 'maintain' ? 'write' : role === 'triage' ? 'read' : role;
        return send(200, { permission: base, role_name: role, user: { login: permission[1] } });
      }
      if (req.method === 'GET' && req.url!.split('?')[0] === '/repos/acme/tools/issues/7/labels')
        return send(
          200,
          api.labels.map((name) => ({ name })),
        );
      const workflowRuns = /^\/repos\/acme\/tools\/actions\/workflows\/([^/]+)\/runs$/.exec(req.url!.split('?')[0]!);
      if (req.method === 'GET' && workflowRuns) {
        const query = new URL(req.url!, 'http://x').searchParams;
        const runs = [...api.runs]
          .filter(
            ([, r]) => (r.path ?? '.github/workflows/mcp-gate.yml').endsWith(`/${workflowRuns[1]}`) && r.head_sha === query.get('head_sha'),
          )
          .map(([id, r]) => ({ id, run_number: id, head_sha: r.head_sha, status: r.conclusion === null ? 'in_progress' : 'completed' }))
          .reverse();
        return send(200, { total_count: runs.length, workflow_runs: runs });
      }
      const runArtifacts = /^\/repos\/acme\/tools\/actions\/runs\/(\d+)\/artifacts$/.exec(req.url!.split('?')[0]!);
      if (req.method === 'GET' && runArtifacts) {
        const id = Number(runArtifacts[1]);
        const zip = api.artifacts.get(id);
        const artifacts = zip
          ? [
              {
                name: 'mcp-gate-report',
                expired: false,
                size_in_bytes: zip.length,
                archive_download_url: `${apiUrl}/repos/acme/tools/actions/artifacts/${id}/zip`,
              },
            ]
          : [];
        return send(200, { total_count: artifacts.length, artifacts });
      }
      const download = /^\/repos\/acme\/tools\/actions\/artifacts\/(\d+)\/zip$/.exec(req.url ?? '');
      if (req.method === 'GET' && download) return res.writeHead(302, { location: `${apiUrl}/storage/${download[1]}.zip` }).end();
      const runMatch = /^\/repos\/acme\/tools\/actions\/runs\/(\d+)(\/jobs)?$/.exec(req.url!.split('?')[0]!);
      if (req.method === 'GET' && runMatch) {
        const run = api.runs.get(Number(runMatch[1]));
        if (!run) return send(404, { message: 'Not Found' });
        if (runMatch[2]) return send(200, { total_count: run.jobs?.length ?? 0, jobs: run.jobs ?? [] });
        return send(200, {
          id: Number(runMatch[1]),
          conclusion: run.conclusion,
          head_sha: run.head_sha,
          path: run.path ?? '.github/workflows/mcp-gate.yml',
          html_url: `https://github.test/acme/tools/actions/runs/${runMatch[1]}`,
        });
      }
      const contents = /^\/repos\/acme\/tools\/contents\/(.+)$/.exec(req.url!.split('?')[0]!);
      if (req.method === 'GET' && contents) {
        const file = api.files.get(decodeURIComponent(contents[1]!));
        const ref = new URL(req.url!, 'http://x').searchParams.get('ref');
        const sha = ref === HEAD ? (file?.head ?? file?.base) : ref === null ? file?.base : undefined;
        return sha ? send(200, { type: 'file', path: contents[1], sha }) : send(404, { message: 'Not Found' });
      }
      if (req.method === 'GET' && req.url!.split('?')[0] === '/repos/acme/tools/pulls') {
        const head = new URL(req.url!, 'http://x').searchParams.get('head');
        return send(
          200,
          api.pulls.filter((p) => `${p.head.repo.owner.login}:${p.head.ref}` === head),
        );
      }
      const statusMatch = /^\/repos\/acme\/tools\/statuses\/(\w+)$/.exec(req.url ?? '');
      if (req.method === 'POST' && statusMatch) {
        if (api.deny || api.denyStatuses) return send(403, { message: 'Resource not accessible by integration' });
        api.statuses.push({
          sha: statusMatch[1]!,
          ...(JSON.parse(body) as { state: string; context: string; description: string }),
          creator: BOT,
        });
        return send(201, {});
      }
      const listStatuses = /^\/repos\/acme\/tools\/commits\/(\w+)\/statuses$/.exec(req.url!.split('?')[0]!);
      if (req.method === 'GET' && listStatuses) return send(200, api.statuses.filter((x) => x.sha === listStatuses[1]).reverse());
      if (body && (JSON.parse(body) as Comment).body.length > api.maxBody)
        return send(422, {
          message: 'Validation Failed',
          errors: [{ code: 'custom', field: 'body', message: 'body is too long (maximum is 65536 characters)' }],
        });
      if (api.deny) return send(403, { message: 'Resource not accessible by integration' });
      if (req.method === 'POST' && req.url === '/repos/acme/tools/issues/7/comments') {
        const comment = { id: 100 + api.comments.length, body: (JSON.parse(body) as Comment).body, user: BOT };
        api.comments.push(comment);
        return send(201, { ...comment, html_url: `https://github.test/acme/tools/pull/7#issuecomment-${comment.id}` });
      }
      const patch = /^\/repos\/acme\/tools\/issues\/comments\/(\d+)$/.exec(req.url ?? '');
      if (req.method === 'PATCH' && patch) {
        const comment = api.comments.find((c) => c.id === Number(patch[1]));
        if (!comment) return send(404, {});
        comment.body = (JSON.parse(body) as Comment).body;
        return send(200, { ...comment, html_url: `https://github.test/acme/tools/pull/7#issuecomment-${comment.id}` });
      }
      send(404, { message: 'Not Found' });
    };
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

interface ActionRun {
  code: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
}

function runAction(
  dir: string,
  inputs: Record<string, string>,
  event: object,
  extra: { env?: Record<string, string>; args?: string[]; eventName?: string; script?: string } = {},
): Promise<ActionRun> {
  const files = { output: join(dir, 'github-output'), summary: join(dir, 'step-summary'), event: join(dir, 'event.json') };
  writeFileSync(files.output, '');
  writeFileSync(files.summary, '');
  writeFileSync(files.event, JSON.stringify(event));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    GITHUB_ACTIONS: 'true',
    GITHUB_OUTPUT: files.output,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_EVENT_PATH: files.event,
    GITHUB_EVENT_NAME: extra.eventName ?? 'pull_request',
    RUNNER_TEMP: dir,
    GITHUB_REPOSITORY: 'acme/tools',
    GITHUB_API_URL: apiUrl,
    GITHUB_SERVER_URL: 'https://github.test',
    GITHUB_RUN_ID: '42',
    GITHUB_WORKSPACE: dir,
  };
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.toUpperCase()}`] = value;
  Object.assign(env, extra.env);
  return new Promise((resolve) => {
    // `script`: a step's `run:` from action.yml, run by bash as the runner runs it.
    const child = extra.script
      ? spawn('bash', ['-c', extra.script], { cwd: dir, env })
      : spawn(process.execPath, [join(ROOT, 'bin/mcp-gate-action.js'), ...(extra.args ?? [])], { cwd: dir, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => {
      const outputs = Object.fromEntries(
        readFileSync(files.output, 'utf8')
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
      );
      resolve({ code, stdout, stderr, outputs, summary: readFileSync(files.summary, 'utf8') });
    });
  });
}

const prEvent = (labels: string[] = [], fork = false, action = 'synchronize', label?: string) => ({
  action,
  ...(label && { label: { name: label } }),
  pull_request: {
    number: 7,
    labels: labels.map((name) => ({ name })),
    head: { repo: { full_name: fork ? 'someone/tools' : 'acme/tools' } },
    base: { repo: { full_name: 'acme/tools' } },
  },
});
/** The gate job's inputs: no token (action.yml never passes it to the gate). */
const GATE = { config: 'gate.config.yaml' };
/** The comment workflow's inputs. */
const INPUTS = { 'github-token': 'test-token', 'approve-label': 'mcp-gate-approved' };
const HEAD = 'abc123def4567890';
let nextRunId = 500;

const runEvent = (id: number, fork = false) => ({
  workflow_run: {
    id,
    event: 'pull_request',
    head_sha: HEAD,
    head_branch: 'feature',
    head_repository: { full_name: fork ? 'someone/tools' : 'acme/tools', owner: { login: fork ? 'someone' : 'acme' } },
    // GitHub lists no pull request in the payload of a fork's run.
    pull_requests: fork ? [] : [{ number: 7, head: { sha: HEAD } }],
  },
});

/** The comment workflow (mode: comment) on a workflow_run payload, reading `<dir>/mcp-gate-artifact`. */
const commentWorkflow = (dir: string, inputs: Record<string, string>, id: number, fork = false, env: Record<string, string> = {}) =>
  runAction(dir, { 'artifact-dir': join(dir, 'mcp-gate-artifact'), ...inputs }, runEvent(id, fork), {
    args: ['comment'],
    eventName: 'workflow_run',
    env,
  });

/** A folder as a zip archive, the way the API serves an artifact (deflated entries, a central directory). */
function zipOf(dir: string, entries = readdirSync(dir).map((name) => ({ name, data: readFileSync(join(dir, name)) }))): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const { name, data } of entries) {
    const packed = deflateRawSync(data);
    const title = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc32(data), 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(title.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(crc32(data), 16);
    entry.writeUInt32LE(packed.length, 20);
    entry.writeUInt32LE(data.length, 24);
    entry.writeUInt16LE(title.length, 28);
    entry.writeUInt32LE(offset, 42);
    parts.push(local, title, packed);
    central.push(entry, title);
    offset += 30 + title.length + packed.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, directory, end]);
}

/** The comment workflow on a label change (pull_request_target): no artifact downloaded by the workflow. */
const labelWorkflow = (dir: string, inputs: Record<string, string>, action: 'labeled' | 'unlabeled', label = 'mcp-gate-approved') =>
  runAction(
    dir,
    inputs,
    {
      action,
      label: { name: label },
      pull_request: {
        number: 7,
        head: { sha: HEAD, ref: 'feature', repo: { full_name: 'acme/tools' } },
        base: { repo: { full_name: 'acme/tools' } },
      },
    },
    { args: ['comment'], eventName: 'pull_request_target' },
  );

interface TwoWorkflows {
  gate: ActionRun;
  post: ActionRun;
}

/**
 * The runner's side of both workflows: the gate job; its `artifact-dir` uploaded to the fake
 * artifact store (a folder, as actions/download-artifact leaves it), `tamper` standing for
 * whatever the pull request's code did to it; the run's conclusion from the gate's exit code
 * (or `conclusion`) in the fake API; then the comment workflow.
 */
async function gateThenComment(
  dir: string,
  gateInputs: Record<string, string>,
  commentInputs: Record<string, string>,
  options: {
    fork?: boolean;
    conclusion?: string;
    path?: string;
    tamper?: (store: string) => void;
    env?: Record<string, string>;
    /** The gate job of an earlier call on the same `dir` and inputs, whose hand-off is posted again. */
    gate?: ActionRun;
  } = {},
): Promise<TwoWorkflows> {
  const gate = options.gate ?? (await runAction(dir, gateInputs, prEvent([], options.fork)));
  const store = join(dir, 'mcp-gate-artifact');
  rmSync(store, { recursive: true, force: true });
  mkdirSync(store);
  if (gate.outputs['artifact-dir']) cpSync(gate.outputs['artifact-dir'], store, { recursive: true });
  options.tamper?.(store);
  const id = nextRunId++;
  api.runs.set(id, { conclusion: options.conclusion ?? (gate.code === 0 ? 'success' : 'failure'), head_sha: HEAD, path: options.path });
  api.artifacts.set(id, zipOf(store));
  const post = await commentWorkflow(dir, commentInputs, id, options.fork, options.env);
  return { gate, post };
}

describe('the gate job on a pull request', { timeout: 60_000 }, () => {
  it('sets the outputs, writes the summary, annotations and hand-off, and calls no API', async () => {
    api.calls = [];
    const dir = scratchProject();
    const first = await runAction(dir, GATE, prEvent());
    expect(first.code, first.stderr).toBe(1);
    expect(api.calls).toEqual([]);
    expect(first.outputs).toMatchObject({ verdict: 'Rollback', 'breaking-count': '1', 'broken-cases': '3' });
    expect(first.outputs['report-path']).toMatch(/^reports\/\d{8}T\d{6}Z-baseline-to-candidate\.json$/);
    expect(first.summary).toContain('## ⛔ mcp-gate: **Rollback**');
    expect(first.summary).toContain("is in [this run's artifacts](https://github.test/acme/tools/actions/runs/42)");
    expect(first.outputs['html-report-path']).toBe(first.outputs['report-path']!.replace(/\.json$/, '.html'));
    expect(readFileSync(join(dir, first.outputs['html-report-path']!), 'utf8')).toMatch(/^<!doctype html>/i);
    // The release notes beside it: the breaking change first, under the version the candidate says.
    expect(first.outputs['changelog-path']).toBe(first.outputs['report-path']!.replace(/\.json$/, '.changelog.md'));
    expect(readFileSync(join(dir, first.outputs['changelog-path']!), 'utf8')).toMatch(/^## support-ops 1\.5\.0\n[\s\S]*### Breaking\n/);
    // The hand-off is the report itself.
    const handed = JSON.parse(readFileSync(join(first.outputs['artifact-dir']!, 'report.json'), 'utf8')) as { decision: object };
    const saved = JSON.parse(readFileSync(join(dir, first.outputs['report-path']!), 'utf8')) as { decision: object };
    expect(handed.decision).toEqual(saved.decision);
    // Annotations follow the verdict: what rolls back is an error, what holds a warning.
    expect(first.stdout).toMatch(
      /^::error file=datasets\/support-ops\.cases\.yaml,line=6,title=mcp-gate case TG-001 broken::forbidden tool Deployments\.Rollback is exposed$/m,
    );
    expect(first.stdout).toMatch(
      /^::error title=mcp-gate required-argument-removed::"Incident\.Declare" no longer takes required argument "severity"\.$/m,
    );
    expect(first.stdout).toMatch(/^::error title=mcp-gate tool-added-destructive::/m);
  });

  it('the comment, token and label inputs of earlier versions do nothing but say where the comment went', async () => {
    api.calls = [];
    const run = await runAction(
      scratchProject(),
      { ...GATE, comment: 'true', 'approve-label': 'mcp-gate-approved' },
      prEvent(['mcp-gate-approved']),
      {
        env: { MCPGATE_TOKEN_GIVEN: 'true' },
      },
    );
    expect(run.code, run.stderr).toBe(1);
    expect(run.outputs.verdict).toBe('Rollback'); // the label approves nothing here
    expect(api.calls).toEqual([]);
    expect(run.stdout).toMatch(
      /^::notice title=mcp-gate%3A the comment moved to a second workflow::`comment`, `github-token`, `approve-label` do nothing in the gate job: .*mode: comment, on workflow_run.*examples\/workflows\/mcp-gate-comment\.yml/m,
    );
  });

  it('a config the gate cannot read is exit 3 with verdict "error", the message in the summary, and the reason handed off', async () => {
    const dir = scratchProject();
    const run = await runAction(dir, { ...GATE, config: 'missing.yaml' }, prEvent());
    expect(run.code).toBe(3);
    expect(run.outputs.verdict).toBe('error');
    expect(run.summary).toContain('missing.yaml: file not found');
    expect(run.stdout).toMatch(/^::error title=mcp-gate could not decide::/m);
    const handed = JSON.parse(readFileSync(join(run.outputs['artifact-dir']!, 'undecided.json'), 'utf8')) as { reason: string };
    expect(handed.reason).toContain('missing.yaml: file not found');
  });

  it('against a committed snapshot baseline, a tool change points at the tool in the snapshot', async () => {
    const dir = scratchProject();
    await snapshotBaseline(dir);
    const run = await runAction(dir, GATE, prEvent());
    expect(run.code, run.stderr).toBe(1);
    const lines = readFileSync(join(dir, 'contracts/baseline.json'), 'utf8').split('\n');
    const line = lines.findIndex((l) => l.includes('"name": "Incident.Declare"')) + 1;
    expect(line).toBeGreaterThan(0);
    expect(run.stdout).toContain(`::error file=contracts/baseline.json,line=${line},title=mcp-gate required-argument-removed::`);
  });

  it('a bad input is a usage error (exit 3, no stack trace), and an undecided run leaves the counts empty', async () => {
    const run = await runAction(scratchProject(), { ...GATE, 'fail-on': 'sometimes' }, prEvent());
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('action inputs: fail-on: must be rollback, hold or never, not "sometimes"');
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.outputs).toMatchObject({ verdict: 'error', 'breaking-count': '', 'broken-cases': '' });
  });
});

describe('the comment workflow posts what the gate decided', { timeout: 90_000 }, () => {
  const ours = (key = 'gate.config.yaml') =>
    api.comments.filter((c) => c.user?.login === BOT.login && c.body.startsWith(`<!-- mcp-gate:report key=${key} -->`));

  it('creates the comment once, rendered anew from the report, then updates it; the status carries the verdict', async () => {
    api.comments = [{ id: 1, body: 'an unrelated review comment' }];
    api.calls = [];
    api.statuses = [];
    const dir = scratchProject();
    const { gate, post } = await gateThenComment(dir, GATE, INPUTS);
    expect(post.code, post.stderr).toBe(0);
    expect(api.comments).toHaveLength(2);
    const report = JSON.parse(readFileSync(join(dir, gate.outputs['report-path']!), 'utf8')) as Report;
    const expected = render('report', report, 'markdown', {
      approveLabel: 'mcp-gate-approved',
      reportLink: `https://github.test/acme/tools/actions/runs/${nextRunId - 1}`,
    });
    expect(api.comments[1]!.body).toBe(`<!-- mcp-gate:report key=gate.config.yaml -->\n${expected.slice(STICKY_MARKER.length + 1)}`);
    expect(post.summary).toContain('## ⛔ mcp-gate: **Rollback**');
    expect(post.outputs).toMatchObject({ verdict: 'Rollback', 'pull-request': '7' });
    expect(api.statuses).toEqual([
      { sha: HEAD, state: 'failure', context: 'mcp-gate', description: 'Rollback', target_url: expect.any(String), creator: BOT },
    ]);

    const second = await gateThenComment(dir, GATE, INPUTS);
    expect(second.post.code).toBe(0);
    expect(api.comments).toHaveLength(2); // updated, not added again
    expect(api.calls.filter((c) => c.startsWith('POST /repos/acme/tools/issues'))).toHaveLength(1);
    expect(api.calls.filter((c) => c.startsWith('PATCH'))).toEqual(['PATCH /repos/acme/tools/issues/comments/101']);
    expect(api.comments[0]!.body).toBe('an unrelated review comment');
  });

  it('a pull request from a fork gets the comment too, found by its head branch and commit', async () => {
    api.comments = [];
    api.pulls = [
      { number: 7, head: { sha: HEAD, ref: 'feature', repo: { full_name: 'someone/tools', owner: { login: 'someone' } } } },
      { number: 8, head: { sha: 'another', ref: 'feature', repo: { full_name: 'someone/tools', owner: { login: 'someone' } } } },
    ];
    try {
      const { post } = await gateThenComment(scratchProject(), GATE, INPUTS, { fork: true });
      expect(post.code, post.stderr).toBe(0);
      expect(ours()).toHaveLength(1);
      expect(ours()[0]!.body).toContain('**Rollback**');
    } finally {
      api.pulls = [];
    }
  });

  it('a token that cannot comment: the verdict goes to the summary, and the workflow says so', async () => {
    api.comments = [];
    api.deny = true;
    try {
      const { post } = await gateThenComment(scratchProject(), GATE, { 'github-token': 'test-token' });
      expect(post.code).toBe(0);
      expect(api.comments).toHaveLength(0);
      expect(post.summary).toContain('## ⛔ mcp-gate: **Rollback**');
      expect(post.summary).toContain('No PR comment: the token cannot comment on this pull request (HTTP 403)');
      expect(post.stdout).toContain('::warning title=mcp-gate::No PR comment');
    } finally {
      api.deny = false;
    }
  });

  it('an undecided run replaces the comment with "could not decide" and the reason', async () => {
    api.comments = [
      { id: 9, body: '<!-- mcp-gate:report key=gate.config.yaml -->\n## ✅ mcp-gate: **Promote**: an earlier push', user: BOT },
    ];
    api.statuses = [];
    const { gate, post } = await gateThenComment(scratchProject(), { config: 'missing.yaml' }, { ...INPUTS, config: 'gate.config.yaml' });
    expect(gate.code).toBe(3);
    expect(post.code, post.stderr).toBe(0);
    expect(api.comments).toHaveLength(1);
    expect(api.comments[0]!.body).toMatch(/^<!-- mcp-gate:report key=gate\.config\.yaml -->\n## ⛔ mcp-gate: could not decide/);
    expect(api.comments[0]!.body).toContain('missing.yaml: file not found');
    expect(api.comments[0]!.body).not.toContain('Promote');
    expect(api.statuses.at(-1)).toMatchObject({ state: 'error', description: 'could not decide' });
  });

  it('the reason of an undecided run is shown line by line in its fence, inert', async () => {
    api.comments = [];
    const { post } = await gateThenComment(scratchProject(), GATE, INPUTS, {
      conclusion: 'failure',
      tamper: (store) => {
        rmSync(join(store, 'report.json'));
        writeFileSync(
          join(store, 'undecided.json'),
          JSON.stringify({ reason: 'baseline unavailable\n  at spawn: ENOENT\n```\n<!-- x --> @octocat' }),
        );
      },
    });
    expect(post.code, post.stderr).toBe(0);
    expect(ours()[0]!.body).toContain('\n````\nbaseline unavailable\n  at spawn: ENOENT\n```\n<!-\\u{2D} x -\\u{2D}> @octocat\n````');
    expect(ours()[0]!.body).not.toContain('unavailable\\n');
  });

  it('a gate job that uploaded nothing and failed is "could not decide" too', async () => {
    api.comments = [];
    const { post } = await gateThenComment(scratchProject(), GATE, INPUTS, { tamper: (store) => rmSync(join(store, 'report.json')) });
    expect(post.code).toBe(0);
    expect(ours()[0]!.body).toContain('could not decide');
    expect(ours()[0]!.body).toContain('The gate job left no reason');
  });

  it('the approve label: given, the run is Promote and the record is kept; a new finding makes it stale and says what clears it', async () => {
    const LABEL = 'mcp-gate-approved';
    freshPullRequest([LABEL]);
    try {
      const dir = scratchProject();
      const given = await gateThenComment(dir, GATE, INPUTS);
      expect(given.gate.outputs.verdict).toBe('Rollback'); // the gate job does not read labels
      expect(given.post.outputs.verdict, given.post.stderr).toBe('Promote');
      expect(ours()[0]!.body).toContain('approved by label `mcp-gate-approved`; the gate said **Rollback**');
      expect(ours()[0]!.body).toMatch(/<!-- mcp-gate:approval [A-Za-z0-9+/=]+ -->/);
      expect(api.statuses.at(-1)).toMatchObject({ state: 'success', description: 'Promote' });

      const same = await gateThenComment(dir, GATE, INPUTS);
      expect(same.post.outputs.verdict).toBe('Promote');

      writeFileSync(
        join(dir, 'datasets/new.cases.yaml'),
        'role: support-agent\ncases:\n  - id: NEW-1\n    userTask: Declare an incident with its severity.\n    requiredTools:\n      - toolName: Incident.Declare\n        requiredArguments: [severity]\n',
      );
      writeFileSync(
        join(dir, 'gate.config.yaml'),
        readFileSync(join(dir, 'gate.config.yaml'), 'utf8').replace(
          'datasets: [datasets/support-ops.cases.yaml]',
          'datasets: [datasets/support-ops.cases.yaml, datasets/new.cases.yaml]',
        ),
      );
      const stale = await gateThenComment(dir, GATE, INPUTS);
      expect(stale.post.outputs.verdict).toBe('Rollback');
      expect(ours()[0]!.body).toContain(
        '1 finding is new since, so the verdict stands. What clears this: remove the label and add it again',
      );
      expect(api.statuses.at(-1)).toMatchObject({ state: 'failure' });
      // Stale stays stale: the record is kept, so the next run is not read as a label just given.
      expect((await gateThenComment(dir, GATE, INPUTS)).post.outputs.verdict).toBe('Rollback');

      // Removed: not approved, and the record goes, so adding it again approves what is there then.
      api.labels = [];
      const removed = await gateThenComment(dir, GATE, INPUTS);
      expect(removed.post.outputs.verdict).toBe('Rollback');
      expect(ours()[0]!.body).not.toMatch(/<!-- mcp-gate:approval/);
      api.labels = [LABEL];
      const again = await gateThenComment(dir, GATE, INPUTS);
      expect(again.post.outputs.verdict).toBe('Promote');
    } finally {
      api.labels = [];
    }
  });

  it('a comment someone else wrote, carrying the marker, is never edited: the workflow writes its own', async () => {
    const planted = {
      id: 5,
      body: `${STICKY_MARKER}\n<!-- mcp-gate:report key=gate.config.yaml -->\n## ✅ mcp-gate: **Promote**`,
      user: { login: 'mallory' },
    };
    api.comments = [{ ...planted }];
    api.calls = [];
    const { post } = await gateThenComment(scratchProject(), GATE, INPUTS);
    expect(post.code, post.stderr).toBe(0);
    expect(api.comments[0]).toEqual(planted);
    expect(api.calls.filter((c) => c.startsWith('PATCH'))).toEqual([]);
    expect(ours()).toHaveLength(1);
    expect(ours()[0]!.body).toContain('**Rollback**');
  });

  it('two comment keys keep two comments and two statuses on one pull request', async () => {
    freshPullRequest();
    const dir = scratchProject();
    await gateThenComment(dir, GATE, { ...INPUTS, 'comment-key': 'payments' });
    await gateThenComment(dir, GATE, { ...INPUTS, 'comment-key': 'search' });
    await gateThenComment(dir, GATE, { ...INPUTS, 'comment-key': 'payments' });
    expect(api.comments.map((c) => c.body.split('\n')[0])).toEqual([
      '<!-- mcp-gate:report key=payments -->',
      '<!-- mcp-gate:report key=search -->',
    ]);
    expect([...new Set(api.statuses.map((x) => x.context))]).toEqual(['mcp-gate/payments', 'mcp-gate/search']);
  });

  it('a body GitHub refuses (422) is replaced by the current verdict alone, never left saying the old one', async () => {
    api.comments = [
      { id: 9, body: '<!-- mcp-gate:report key=gate.config.yaml -->\n## ✅ mcp-gate: **Promote**: an earlier push', user: BOT },
    ];
    api.maxBody = 500;
    try {
      const { post } = await gateThenComment(scratchProject(), GATE, INPUTS);
      expect(post.code).toBe(0);
      expect(post.stderr).toContain('GitHub refused the full comment (HTTP 422); posting the verdict alone');
      expect(api.comments).toHaveLength(1);
      expect(api.comments[0]!.body).toMatch(
        /^<!-- mcp-gate:report key=gate\.config\.yaml -->\n## ⛔ mcp-gate: \*\*Rollback\*\* — `required-argument-removed`/,
      );
      expect(api.comments[0]!.body).toMatch(
        /It is in the job summary of \[this run\]\(https:\/\/github\.test\/acme\/tools\/actions\/runs\/\d+\)\./,
      );
    } finally {
      api.maxBody = 65_536;
    }
  });

  it('finds its comment on a later page, through the Link header', async () => {
    api.comments = Array.from({ length: 150 }, (_, i) => ({ id: 1000 + i, body: `review note ${i}`, user: { login: 'reviewer' } }));
    api.comments[120] = { id: 1120, body: '<!-- mcp-gate:report key=gate.config.yaml -->\nold', user: BOT };
    api.calls = [];
    const { post } = await gateThenComment(scratchProject(), GATE, { 'github-token': 'test-token' });
    expect(post.code, post.stderr).toBe(0);
    expect(api.calls.filter((c) => c.startsWith('PATCH') || c.startsWith('POST /repos/acme/tools/issues'))).toEqual([
      'PATCH /repos/acme/tools/issues/comments/1120',
    ]);
    expect(api.comments).toHaveLength(150);
  });

  it('5xx answers are retried', async () => {
    api.comments = [];
    const dir = scratchProject();
    const gate = await runAction(dir, GATE, prEvent());
    mkdirSync(join(dir, 'mcp-gate-artifact'), { recursive: true });
    cpSync(gate.outputs['artifact-dir']!, join(dir, 'mcp-gate-artifact'), { recursive: true });
    const id = nextRunId++;
    api.runs.set(id, { conclusion: 'failure', head_sha: HEAD });
    api.failNext = [502, 503];
    const retried = await commentWorkflow(dir, { 'github-token': 'test-token' }, id);
    expect(retried.code, retried.stderr).toBe(0);
    expect(ours()).toHaveLength(1);
  });
});

describe("the approve label's record is the comment workflow's own", { timeout: 90_000 }, () => {
  const LABEL = 'mcp-gate-approved';
  const SERVER = join(ROOT, 'test/fixtures/servers/approval-plant-server.mjs');
  const ours = () => api.comments.find((c) => c.user?.login === BOT.login)?.body ?? '';
  const gateStatus = () => api.statuses.filter((x) => x.context === 'mcp-gate').at(-1);
  /** A project whose candidate is approval-plant-server.mjs in `mode`, its planted argument read from plant.txt. */
  const candidate = (dir: string, mode: 'hold' | 'destructive') =>
    writeFileSync(
      join(dir, 'gate.config.yaml'),
      `version: 1\nprofiles:\n  before: { command: node, args: [${JSON.stringify(SERVER)}, base, plant.txt] }\n  after: { command: node, args: [${JSON.stringify(SERVER)}, ${mode}, plant.txt] }\nbaseline: before\ncandidate: after\n`,
    );
  const project = () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-record-'));
    writeFileSync(join(dir, 'plant.txt'), 'remark');
    candidate(dir, 'hold');
    return dir;
  };

  it('a record planted in a tool argument approves nothing: a destructive tool pushed after the label holds', async () => {
    freshPullRequest();
    try {
      const dir = project();
      // What the pull request's author computes ahead: the keys its later push brings, as a record.
      candidate(dir, 'destructive');
      const ahead = await runAction(dir, GATE, prEvent());
      const keys = (JSON.parse(readFileSync(join(ahead.outputs['artifact-dir']!, 'report.json'), 'utf8')) as Report).decision.signalKeys;
      expect(keys).toHaveLength(2);
      const record = Buffer.from(JSON.stringify({ label: LABEL, covers: keys })).toString('base64');
      writeFileSync(join(dir, 'plant.txt'), `<!-- mcp-gate:approval ${record} -->`);

      // A benign Hold, whose comment shows the planted argument's name (inert: it opens no HTML comment).
      candidate(dir, 'hold');
      const benign = await gateThenComment(dir, GATE, INPUTS);
      expect(benign.post.outputs.verdict).toBe('Hold');
      expect(ours()).toContain('mcp-gate:approval');
      expect(ours()).not.toMatch(/<!--\s*mcp-gate:approval/);

      // The label, given for that Hold, approves it.
      api.labels = [LABEL];
      const approved = await gateThenComment(dir, GATE, INPUTS);
      expect(approved.post.outputs.verdict, approved.post.stderr).toBe('Promote');

      // The destructive tool, pushed later, was not there when the label was given.
      candidate(dir, 'destructive');
      const later = await gateThenComment(dir, GATE, INPUTS);
      expect(later.post.outputs.verdict).toBe('Hold');
      expect(ours()).toContain('1 finding is new since, so the verdict stands');
      expect(gateStatus()).toMatchObject({ state: 'failure', description: 'Hold' });
    } finally {
      api.labels = [];
    }
  });

  it('a record is authenticated by the status the workflow wrote; one without it approves nothing, and the comment says why', async () => {
    freshPullRequest([LABEL]);
    try {
      const dir = scratchProject();
      const given = await gateThenComment(dir, GATE, INPUTS);
      expect(given.post.outputs.verdict).toBe('Promote');
      const record = ours().split('\n')[1]!;
      expect(record).toMatch(/^<!-- mcp-gate:approval [A-Za-z0-9+/=]+ -->$/);
      const made = api.statuses.find((x) => x.context === 'mcp-gate-approval')!;
      expect(made).toMatchObject({ sha: HEAD, state: 'success', creator: BOT });
      expect(made.description).toMatch(/^approval record [0-9a-f]{64}$/);
      expect((await gateThenComment(dir, GATE, INPUTS)).post.outputs.verdict).toBe('Promote');

      // The same record whose status is gone, or was written by someone else: nothing is approved.
      const theirs = { ...made, creator: { login: 'mallory' } };
      api.statuses = [theirs];
      const forged = await gateThenComment(dir, GATE, INPUTS);
      expect(forged.post.outputs.verdict).toBe('Rollback');
      expect(ours()).toContain(
        "label approves nothing on this run: no `mcp-gate-approval` status written by `github-actions[bot]` on `abc123def456` carries the record's digest. What clears this: remove the label and add it again.",
      );
      expect(gateStatus()).toMatchObject({ state: 'failure', description: 'Rollback' });
      expect(ours().split('\n')[1]).toBe(record); // kept, so the next run is refused the same way

      // A record that covers more than its status says (an edited comment), or one that is not a record: nothing.
      api.statuses = [made];
      const wider = JSON.parse(Buffer.from(/ (\S+) -->$/.exec(record)![1]!, 'base64').toString()) as { covers: string[] };
      wider.covers.push('tool-added-destructive|Purge|');
      for (const line of [
        `<!-- mcp-gate:approval ${Buffer.from(JSON.stringify(wider)).toString('base64')} -->`,
        '<!-- mcp-gate:approval %% -->',
      ]) {
        api.comments[0]!.body = api.comments[0]!.body.replace(/^(.*\n).*/, `$1${line}`);
        const edited = await gateThenComment(dir, GATE, INPUTS);
        expect(edited.post.outputs.verdict).toBe('Rollback');
        expect(ours()).toContain('label approves nothing on this run');
      }
      expect((await gateThenComment(dir, GATE, INPUTS)).post.outputs.verdict).toBe('Rollback');

      // Removed and given again: a new record, authenticated anew.
      api.labels = [];
      expect((await gateThenComment(dir, GATE, INPUTS)).post.outputs.verdict).toBe('Rollback');
      api.labels = [LABEL];
      expect((await gateThenComment(dir, GATE, INPUTS)).post.outputs.verdict).toBe('Promote');
    } finally {
      api.labels = [];
    }
  });

  it('the label counts only from an approver: the last person who added it, by role or by the approvers input', async () => {
    freshPullRequest([LABEL]);
    const added = (...logins: string[]) =>
      (api.labelEvents = logins.map((login) => ({ event: 'labeled', label: { name: LABEL }, actor: { login } })));
    try {
      const dir = scratchProject();
      // The pull request's author, with write access, labels it themselves.
      added('maintainer', 'mallory');
      const own = await gateThenComment(dir, GATE, INPUTS);
      expect(own.post.outputs.verdict).toBe('Rollback');
      expect(ours()).toContain(
        'The `mcp-gate-approved` label approves nothing on this run: it was added by `mallory`, whose role on this repository is `write`; it takes someone with the admin or maintain role (or a login the `approvers` input lists) to add it.',
      );
      expect(ours().split('\n')[1]).not.toMatch(/mcp-gate:approval/);
      expect(gateStatus()).toMatchObject({ state: 'failure', description: 'Rollback' });
      // Someone who is not a collaborator at all.
      added('someone');
      expect((await gateThenComment(dir, GATE, INPUTS)).post.outputs.verdict).toBe('Rollback');
      expect(ours()).toContain('it was added by `someone`, whose role on this repository is none');
      // A maintainer adds it: approved.
      added('mallory', 'maintainer');
      expect((await gateThenComment(dir, GATE, INPUTS)).post.outputs.verdict).toBe('Promote');

      // With an approvers list, only those logins count, whatever their role.
      api.comments = [];
      const listed = { ...INPUTS, approvers: '@alice, bob' };
      added('owner');
      expect((await gateThenComment(dir, GATE, listed)).post.outputs.verdict).toBe('Rollback');
      expect(ours()).toContain('it was added by `owner`, who is not among the approvers (`alice`, `bob`, the `approvers` input)');
      added('bob');
      expect((await gateThenComment(dir, GATE, listed)).post.outputs.verdict).toBe('Promote');
      const team = await commentWorkflow(dir, { ...INPUTS, approvers: '@acme/release-owners' }, nextRunId - 1);
      expect(team.code).toBe(3);
      expect(team.stderr).toContain('action inputs: approvers: must list GitHub logins (teams are not read: name their members)');
    } finally {
      api.labels = [];
      api.labelEvents = null;
    }
  });

  it('a record whose status cannot be written holds for this run, says so, and the next run approves nothing', async () => {
    freshPullRequest([LABEL]);
    api.denyStatuses = true;
    try {
      const dir = scratchProject();
      const given = await gateThenComment(dir, GATE, INPUTS);
      expect(given.post.outputs.verdict).toBe('Promote');
      expect(ours()).toContain('The approval could not be recorded (`HTTP 403`');
      api.denyStatuses = false;
      expect((await gateThenComment(dir, GATE, INPUTS)).post.outputs.verdict).toBe('Rollback');
    } finally {
      api.labels = [];
      api.denyStatuses = false;
    }
  });
});

describe('a label change renders the last gate run again; the gate does not run for it', { timeout: 90_000 }, () => {
  const LABEL = 'mcp-gate-approved';
  const ours = () => api.comments.find((c) => c.user?.login === BOT.login)?.body ?? '';
  const gateStatus = () => api.statuses.filter((x) => x.context === 'mcp-gate').at(-1);

  it('labeled and unlabeled: the comment and the status from the last run of the head, its artifact read through the API', async () => {
    freshPullRequest([LABEL]);
    api.runs.clear();
    api.artifacts.clear();
    try {
      const dir = scratchProject();
      // No gate run has finished for the head: nothing to render; the comment after the run reads the label.
      const early = await labelWorkflow(dir, INPUTS, 'labeled');
      expect(early.code, early.stderr).toBe(0);
      expect(early.summary).toContain('no gate run has finished for abc123def456 yet');
      expect(api.comments).toEqual([]);

      api.labels = [];
      const first = await gateThenComment(dir, GATE, INPUTS);
      expect(first.post.outputs.verdict).toBe('Rollback');
      const id = nextRunId - 1;

      api.labels = [LABEL];
      api.calls = [];
      const labeled = await labelWorkflow(dir, INPUTS, 'labeled');
      expect(labeled.code, labeled.stderr).toBe(0);
      expect(labeled.outputs.verdict).toBe('Promote');
      expect(api.calls).toEqual(
        expect.arrayContaining([
          'GET /repos/acme/tools/actions/workflows/mcp-gate.yml/runs',
          `GET /repos/acme/tools/actions/runs/${id}/artifacts`,
          `GET /repos/acme/tools/actions/artifacts/${id}/zip`,
          `GET /storage/${id}.zip`,
        ]),
      );
      expect(ours()).toContain('approved by label `mcp-gate-approved`; the gate said **Rollback**');
      expect(gateStatus()).toMatchObject({ state: 'success', description: 'Promote' });
      expect(api.comments).toHaveLength(1);

      api.labels = [];
      const unlabeled = await labelWorkflow(dir, INPUTS, 'unlabeled');
      expect(unlabeled.outputs.verdict).toBe('Rollback');
      expect(ours().split('\n')[1]).not.toMatch(/mcp-gate:approval/);
      expect(gateStatus()).toMatchObject({ state: 'failure', description: 'Rollback' });

      // Another label is none of the gate's business.
      api.calls = [];
      const other = await labelWorkflow(dir, INPUTS, 'labeled', 'docs');
      expect(other.code).toBe(0);
      expect(other.summary).toContain('is not the approve label');
      expect(api.calls).toEqual([]);
    } finally {
      api.labels = [];
    }
  });

  it("the artifact read through the API is as untrusted as a downloaded one: a zip bomb or a forged run's is refused", async () => {
    api.comments = [];
    api.runs.clear();
    api.artifacts.clear();
    const dir = scratchProject();
    await gateThenComment(dir, GATE, INPUTS);
    const id = nextRunId - 1;
    // 40 MiB of zeros deflate to a few KiB: inflated only up to the cap.
    api.artifacts.set(id, zipOf('', [{ name: 'report.json', data: Buffer.alloc(40 * 1024 * 1024, 0x20) }]));
    const bomb = await labelWorkflow(dir, INPUTS, 'labeled');
    expect(bomb.code).toBe(1);
    expect(ours()).toContain('report.json is past the cap of 33554432 bytes');
    // The last run on the head ran a gate workflow the pull request edited.
    api.artifacts.set(id, zipOf('', [{ name: 'report.json', data: Buffer.from('{}') }]));
    api.files.set('.github/workflows/mcp-gate.yml', { base: 'blob-gate-1', head: 'blob-edited' });
    try {
      const edited = await labelWorkflow(dir, INPUTS, 'labeled');
      expect(edited.code).toBe(1);
      expect(ours()).toContain(".github/workflows/mcp-gate.yml at the run's commit abc123def456 is not the default branch's");
    } finally {
      api.files.set('.github/workflows/mcp-gate.yml', { base: 'blob-gate-1' });
    }
  });
});

describe('a planted or tampered artifact cannot change what is posted', { timeout: 90_000 }, () => {
  const body = () => api.comments.find((c) => c.user?.login === BOT.login)?.body ?? '';
  const editReport = (store: string, edit: (report: Report) => void) => {
    const file = join(store, 'report.json');
    const report = JSON.parse(readFileSync(file, 'utf8')) as Report;
    edit(report);
    writeFileSync(file, JSON.stringify(report));
  };

  it('a Rollback rewritten to Promote disagrees with the failed gate job: "could not verify", and the workflow fails', async () => {
    freshPullRequest();
    const { post } = await gateThenComment(scratchProject(), GATE, INPUTS, {
      tamper: (store) =>
        editReport(store, (r) => {
          r.decision = { verdict: 'Promote', reasons: [], exceptionsApplied: [] };
        }),
    });
    expect(post.code).toBe(1);
    expect(body()).toMatch(/## ⛔ mcp-gate: could not verify/);
    expect(body()).toContain("the report says Promote, but the gate job's conclusion is failure (fail-on: hold)");
    expect(body()).not.toContain('**Promote**');
    expect(post.outputs.verdict).toBe('unverified');
    expect(api.statuses.at(-1)).toMatchObject({ state: 'error', description: 'could not verify' });
  });

  it('a workflow the pull request adds under the gate\'s name, or an edited gate workflow, is "could not verify"', async () => {
    // The PR's own workflow, named mcp-gate, uploads a Promote of its own and succeeds to match.
    const promote = (store: string) =>
      editReport(store, (r) => {
        r.decision = { verdict: 'Promote', reasons: [], exceptionsApplied: [] };
      });
    for (const [path, head, why] of [
      [
        '.github/workflows/evil.yml',
        undefined,
        'the run is of .github/workflows/evil.yml, not the gate workflow .github/workflows/mcp-gate.yml',
      ],
      [
        '.github/workflows/mcp-gate.yml',
        'blob-edited',
        ".github/workflows/mcp-gate.yml at the run's commit abc123def456 is not the default branch's",
      ],
    ] as const) {
      api.comments = [];
      api.statuses = [];
      api.files.set('.github/workflows/mcp-gate.yml', { base: 'blob-gate-1', ...(head && { head }) });
      try {
        const { post } = await gateThenComment(scratchProject(), GATE, INPUTS, { path, conclusion: 'success', tamper: promote });
        expect(post.code).toBe(1);
        expect(body()).toMatch(/## ⛔ mcp-gate: could not verify/);
        expect(body()).toContain(why);
        expect(body()).not.toContain('**Promote**');
        expect(post.outputs.verdict).toBe('unverified');
        expect(api.statuses.at(-1)).toMatchObject({ context: 'mcp-gate', state: 'error', description: 'could not verify' });
      } finally {
        api.files.set('.github/workflows/mcp-gate.yml', { base: 'blob-gate-1' });
      }
    }
    // The gate-workflow input names another file: a run of it is the gate.
    api.files.set('.github/workflows/gate.yml', { base: 'blob-gate-2' });
    const named = await gateThenComment(
      scratchProject(),
      GATE,
      { ...INPUTS, 'gate-workflow': '.github/workflows/gate.yml' },
      {
        path: '.github/workflows/gate.yml',
      },
    );
    expect(named.post.code, named.post.stderr).toBe(0);
    expect(named.post.outputs.verdict).toBe('Rollback');
  });

  it('a report that fails the schema (fields the comment shows included), or an approval the gate job never gives, is "could not verify"', async () => {
    const dir = scratchProject();
    let gate: ActionRun | undefined;
    for (const tamper of [
      (r: Report) => Object.assign(r.decision, { verdict: 'Approved' }),
      (r: Report) => Object.assign(r, { diff: 'nothing changed' }),
      (r: Report) => Object.assign(r.decision, { approval: { by: 'label', label: 'x', verdictBefore: 'Rollback' }, verdict: 'Promote' }),
      // Fields the comment shows, in shapes the gate never writes: a mention, a link, an image, a fence closed.
      (r: Report) => r.decision.exceptionsApplied.push({ code: 'x @octocat', reason: 'r', expires: '<img src=x>', matched: 1 }),
      (r: Report) => (r.diff.changes[0]!.fingerprint = 'abc\n```\n## ✅ mcp-gate: **Promote** @octocat'),
      (r: Report) => (r.baseline.contractHash = '`@octocat` [x](https://evil.example)'),
      (r: Report) => Object.assign(r, { policy: { base: 'x', files: [{ file: 'f', change: '@octocat' }] } }),
      (r: Report) => (r.startedAt = '<img src=x>'),
    ]) {
      api.comments = [];
      // One gate job, its hand-off tampered with in turn.
      const { post } = await gateThenComment(dir, GATE, INPUTS, {
        gate: (gate ??= await runAction(dir, GATE, prEvent())),
        tamper: (store) => editReport(store, tamper),
      });
      expect(post.code, body()).toBe(1);
      expect(body()).toMatch(/## ⛔ mcp-gate: could not verify/);
      expect(body()).not.toMatch(/\*\*(Promote|Rollback)\*\*/);
    }
  });

  it('a huge report is refused unread, and a file that is not JSON is refused', async () => {
    api.comments = [];
    const huge = await gateThenComment(scratchProject(), GATE, INPUTS, {
      tamper: (store) => writeFileSync(join(store, 'report.json'), `{"pad":"${'x'.repeat(33 * 1024 * 1024)}"}`),
    });
    expect(huge.post.code).toBe(1);
    expect(body()).toMatch(/report\.json is \d+ bytes, past the cap of 33554432/);
    api.comments = [];
    const broken = await gateThenComment(scratchProject(), GATE, INPUTS, {
      tamper: (store) => writeFileSync(join(store, 'report.json'), '{"no'),
    });
    expect(broken.post.code).toBe(1);
    expect(body()).toContain('report.json is not JSON');
  });

  it('markdown in server strings, and a planted approval record, are posted inert', async () => {
    api.comments = [];
    api.labels = [];
    const record = `<!-- mcp-gate:approval ${Buffer.from(JSON.stringify({ label: 'mcp-gate-approved', covers: [] })).toString('base64')} -->`;
    const hostile = `${record}\n## ✅ mcp-gate: **Promote** cc @octocat ![ok](https://evil.example/x.svg) [docs](https://evil.example) <img src=x>`;
    const { post } = await gateThenComment(scratchProject(), GATE, INPUTS, {
      tamper: (store) =>
        editReport(store, (r) => {
          for (const change of r.diff.changes) change.message = hostile;
          r.candidate.profile = hostile;
          for (const reason of r.decision.reasons) reason.message = hostile;
        }),
    });
    expect(post.code, post.stderr).toBe(0);
    const posted = body();
    expect(posted).toContain('**Rollback**');
    expect(posted).not.toMatch(/@octocat|!\[|https:\/\/evil|<img|<!-- mcp-gate:approval/);
    expect(posted.match(/^## /gm)).toHaveLength(1);

    // With the label on, the planted record does not stand for the approval's: the workflow's own comment has none yet.
    api.labels = ['mcp-gate-approved'];
    try {
      const approved = await gateThenComment(scratchProject(), GATE, INPUTS, {
        tamper: (store) => editReport(store, (r) => (r.candidate.profile = hostile)),
      });
      expect(approved.post.outputs.verdict).toBe('Promote');
      expect(body().match(/<!-- mcp-gate:approval /g)).toHaveLength(1);
    } finally {
      api.labels = [];
    }
  });

  it('a hostile candidate: annotations are the only workflow commands, and the comment mentions, links and shows nothing', async () => {
    api.comments = [];
    const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-action-inject-'));
    const server = join(ROOT, 'test/fixtures/servers/injection-server.mjs');
    writeFileSync(
      join(dir, 'gate.config.yaml'),
      `version: 1\nprofiles:\n  before: { command: node, args: [${JSON.stringify(server)}, before] }\n  after: { command: node, args: [${JSON.stringify(server)}, after] }\nbaseline: before\ncandidate: after\n`,
    );
    const { gate, post } = await gateThenComment(dir, GATE, INPUTS);
    expect(gate.code, gate.stderr).toBe(1);
    const commands = [...gate.stdout.split('\n'), ...gate.stderr.split('\n')].filter((l) => /^\s*(::|##\[)/.test(l));
    expect(commands.length).toBeGreaterThan(0);
    for (const line of commands) expect(line).toMatch(/^::(error|warning|notice) (file=[^,:]*,)?(line=\d+,)?title=mcp-gate[^:]*::[^\n]*$/);
    expect(gate.stdout + gate.stderr).not.toContain('\u001b');
    expect(gate.stdout).not.toMatch(/^::add-mask::/m);
    expect(post.code, post.stderr).toBe(0);
    expect(body()).not.toMatch(/@octocat|!\[|https:\/\/evil|<img/);
  });

  it('a job that succeeded with an undecided hand-off, or a run that was cancelled, shows no verdict', async () => {
    api.comments = [];
    const mismatch = await gateThenComment(scratchProject(), GATE, INPUTS, {
      conclusion: 'success',
      tamper: (store) => {
        rmSync(join(store, 'report.json'));
        writeFileSync(join(store, 'undecided.json'), JSON.stringify({ reason: 'nothing' }));
      },
    });
    expect(mismatch.post.code).toBe(1);
    expect(body()).toContain('could not verify');
    api.comments = [];
    const cancelled = await gateThenComment(scratchProject(), GATE, INPUTS, { conclusion: 'cancelled' });
    expect(cancelled.post.code).toBe(0);
    expect(body()).toContain('could not decide');
    expect(body()).toContain('ended `cancelled` without a verdict');
  });
});

describe('no token where the candidate runs', { timeout: 60_000 }, () => {
  interface Step {
    name?: string;
    id?: string;
    if?: string;
    env?: Record<string, string>;
    run?: string;
    uses?: string;
    with?: Record<string, unknown>;
  }
  interface Workflow {
    on: Record<string, { types?: string[]; workflows?: string[] } | null>;
    permissions: Record<string, string>;
    jobs: Record<string, { permissions?: Record<string, string>; steps: Step[] }>;
  }
  const workflow = (file: string) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    // The YAML without its comments, which may name what the workflow does not do.
    return { text: text.replace(/#.*$/gm, ''), parsed: parse(text) as Workflow };
  };

  it("action.yml: the gate step gets no token and drops the runner's; only the comment step, in comment mode, has it", () => {
    const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { runs: { steps: Step[] } };
    const gate = action.runs.steps.find((s) => s.id === 'gate')!;
    const post = action.runs.steps.find((s) => s.id === 'comment')!;
    expect(gate.if).toBe("inputs.mode != 'comment'");
    expect(post.if).toBe("inputs.mode == 'comment'");
    // The only mention of a token in the gate step is a boolean: whether one was set, for the notice.
    for (const [name, value] of Object.entries(gate.env ?? {}))
      if (/token/i.test(value))
        expect([name, value]).toEqual(['MCPGATE_TOKEN_GIVEN', "${{ inputs.github-token != '' && inputs.github-token != github.token }}"]);
    expect(gate.run).toMatch(
      /env -u ACTIONS_RUNTIME_TOKEN -u ACTIONS_ID_TOKEN_REQUEST_TOKEN -u ACTIONS_ID_TOKEN_REQUEST_URL -u GITHUB_TOKEN/,
    );
    expect(post.env).toMatchObject({ 'INPUT_GITHUB-TOKEN': '${{ inputs.github-token }}' });
    expect(post.run).toMatch(/mcp-gate-action\.js" comment$/);
  });

  it('the gate workflow: pull_request only, contents: read, no secrets, no token, the hand-off uploaded', () => {
    const { text, parsed } = workflow('examples/workflows/mcp-gate.yml');
    expect(Object.keys(parsed.on)).toEqual(['pull_request']);
    // A label changes no code: the gate does not run for it (the comment workflow renders again).
    expect(parsed.on.pull_request!.types).toEqual(['opened', 'synchronize', 'reopened']);
    expect(parsed.permissions).toEqual({ contents: 'read' });
    for (const job of Object.values(parsed.jobs)) expect(job.permissions ?? {}).toEqual({});
    expect(text).not.toMatch(/secrets\.|github\.token|GITHUB_TOKEN|github-token|pull_request_target/);
    const steps = parsed.jobs.gate!.steps;
    const gate = steps.find((s) => s.uses?.startsWith('mcp-gate/mcp-gate'))!;
    expect(gate.with).not.toHaveProperty('comment');
    expect(gate.with).not.toHaveProperty('mode');
    const upload = steps.find((s) => s.uses?.startsWith('actions/upload-artifact') && s.with?.name === 'mcp-gate-report')!;
    expect(upload.with!.path).toBe('${{ steps.gate.outputs.artifact-dir }}');
    expect(steps.find((s) => s.uses?.startsWith('actions/checkout'))!.with).toMatchObject({ 'persist-credentials': false });
  });

  it('the comment workflow: workflow_run of the gate workflow, starts nothing of the pull request, mode: comment', () => {
    const gate = workflow('examples/workflows/mcp-gate.yml').parsed as unknown as { name: string };
    const { text, parsed } = workflow('examples/workflows/mcp-gate-comment.yml');
    expect(Object.keys(parsed.on)).toEqual(['workflow_run', 'pull_request_target']);
    expect(parsed.on.workflow_run).toEqual({ workflows: [gate.name], types: ['completed'] });
    // pull_request_target only for label changes, in a job that checks out and runs nothing (below).
    expect(parsed.on.pull_request_target).toEqual({ types: ['labeled', 'unlabeled'] });
    expect(parsed.permissions).toEqual({ actions: 'read', contents: 'read', 'pull-requests': 'write', statuses: 'write' });
    expect(text).not.toMatch(/actions\/checkout|npm |npx |^\s*(- )?run:/m); // nothing of the pull request is checked out or run
    const steps = parsed.jobs.comment!.steps;
    expect(steps.find((s) => s.uses?.startsWith('actions/download-artifact'))!.if).toBe("github.event_name == 'workflow_run'");
    expect(steps.find((s) => s.uses?.startsWith('actions/download-artifact'))!.with).toMatchObject({
      name: 'mcp-gate-report',
      'run-id': '${{ github.event.workflow_run.id }}',
    });
    expect(steps.find((s) => s.uses?.startsWith('mcp-gate/mcp-gate'))!.with).toMatchObject({ mode: 'comment', 'fail-on': 'hold' });
  });

  it("this repository's own workflows follow the same split", () => {
    const ci = workflow('.github/workflows/ci.yml').parsed;
    expect(ci.on.pull_request!.types).not.toContain('labeled');
    expect(ci.jobs.gate!.permissions).toEqual({ contents: 'read' });
    expect(JSON.stringify(ci.jobs.gate)).not.toMatch(/github-token|secrets\.|pull-requests/);
    const post = workflow('.github/workflows/mcp-gate-comment.yml').parsed;
    expect(post.on.workflow_run).toEqual({ workflows: ['ci'], types: ['completed'] });
    // It runs the action from a checkout: of the default branch, by name, also on pull_request_target.
    expect(post.jobs.comment!.steps.find((s) => s.uses?.startsWith('actions/checkout'))!.with).toMatchObject({
      ref: '${{ github.event.repository.default_branch }}',
    });
  });

  it('the gate process, run as the gate step runs it, finds no token in its environment or its children', async () => {
    const dir = scratchProject();
    // A candidate that records every environment it can see: its own and its parent's (the gate's).
    const spy = join(dir, 'spy.mjs');
    writeFileSync(
      spy,
      [
        "import { readFileSync, writeFileSync } from 'node:fs';",
        "let parent = '';",
        "try { parent = readFileSync('/proc/' + process.ppid + '/environ', 'utf8'); } catch {}",
        `writeFileSync(${JSON.stringify(join(dir, 'seen.txt'))}, JSON.stringify(process.env) + '\\n' + parent);`,
        'process.argv.splice(2, 1); // the server reads its profile from argv[2]',
        `await import(${JSON.stringify(join(ROOT, 'examples/support-ops/dist/server.js'))});`,
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'gate.config.yaml'),
      readFileSync(join(dir, 'gate.config.yaml'), 'utf8').replace(
        /(\n {2}candidate:\n {4}command: node\n {4}args: \[)/,
        `$1${JSON.stringify(spy)}, `,
      ),
    );
    // As the runner starts the gate step: the job's environment carries the runner's tokens; the step's own command drops them.
    const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { runs: { steps: Step[] } };
    const script = action.runs.steps.find((s) => s.id === 'gate')!.run!.replaceAll('${{ github.action_path }}', ROOT);
    const tokens = { GITHUB_TOKEN: 'test-token', ACTIONS_RUNTIME_TOKEN: 'test-token', ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'test-token' };
    const run = await runAction(dir, GATE, prEvent(), { script, env: tokens });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).not.toContain('TOKEN');
    const seen = readFileSync(join(dir, 'seen.txt'), 'utf8');
    expect(seen).not.toMatch(/TOKEN|test-token/);
  });
});

describe('action.yml', () => {
  it('declares the inputs and outputs the action promises, and runs the built entry point', () => {
    const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as {
      inputs: object;
      outputs: object;
      runs: { using: string; steps: { id?: string; run?: string; env?: Record<string, string> }[] };
    };
    expect(Object.keys(action.inputs)).toEqual([
      'mode',
      'config',
      'baseline',
      'candidate',
      'fail-on',
      'report-dir',
      'comment',
      'comment-key',
      'approve-label',
      'approvers',
      'github-token',
      'artifact-dir',
      'artifact-name',
      'gate-job',
      'gate-workflow',
      'status',
    ]);
    expect(Object.keys(action.outputs)).toEqual([
      'verdict',
      'report-path',
      'html-report-path',
      'changelog-path',
      'artifact-dir',
      'breaking-count',
      'broken-cases',
    ]);
    expect(action.runs.using).toBe('composite');
    const gate = action.runs.steps.find((s) => s.id === 'gate')!;
    const post = action.runs.steps.find((s) => s.id === 'comment')!;
    expect(gate.run).toMatch(/\n *node "\$\{\{ github\.action_path \}\}\/bin\/mcp-gate-action\.js"\n$/);
    // Every input reaches the step that reads it, under the name it reads: the token only the comment step's.
    const gateInputs = ['mode', 'config', 'baseline', 'candidate', 'fail-on', 'report-dir', 'comment', 'comment-key', 'approve-label'];
    const commentInputs = [
      'config',
      'fail-on',
      'comment-key',
      'approve-label',
      'approvers',
      'github-token',
      'artifact-dir',
      'artifact-name',
      'gate-job',
      'gate-workflow',
      'status',
    ];
    for (const name of Object.keys(action.inputs)) {
      expect(gateInputs.includes(name) || commentInputs.includes(name), name).toBe(true);
      if (gateInputs.includes(name)) expect(gate.env![`INPUT_${name.toUpperCase()}`], name).toBe(`\${{ inputs.${name} }}`);
      if (commentInputs.includes(name)) expect(post.env![`INPUT_${name.toUpperCase()}`], name).toBe(`\${{ inputs.${name} }}`);
    }
    expect(gate.env!['INPUT_GITHUB-TOKEN']).toBeUndefined();
  });
});
