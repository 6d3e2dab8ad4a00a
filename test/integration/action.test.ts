import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT, runCli, scratchProject } from '../helpers/cli.js';
import { STICKY_MARKER } from '../../src/report/markdown.js';

/**
 * The action's launcher (bin/mcp-gate-action.js, what action.yml runs), run as a process with a
 * fake GITHUB_* environment: temp files for GITHUB_OUTPUT and GITHUB_STEP_SUMMARY, an event
 * payload, and a local HTTP server standing in for the GitHub issue-comments API.
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
  failNext: [] as number[],
  maxBody: 65_536,
  labels: [] as string[],
  delayMs: 0,
};
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
      if (req.method === 'GET' && req.url!.split('?')[0] === '/repos/acme/tools/issues/7/labels')
        return send(
          200,
          api.labels.map((name) => ({ name })),
        );
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
  extra: { env?: Record<string, string>; args?: string[] } = {},
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
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_REPOSITORY: 'acme/tools',
    GITHUB_API_URL: apiUrl,
    GITHUB_SERVER_URL: 'https://github.test',
    GITHUB_RUN_ID: '42',
    GITHUB_WORKSPACE: dir,
  };
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.toUpperCase()}`] = value;
  Object.assign(env, extra.env);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin/mcp-gate-action.js'), ...(extra.args ?? [])], { cwd: dir, env });
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

const runCliIn = (dir: string, args: string[]) => runCli(args, { cwd: dir });

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
const INPUTS = { config: 'gate.config.yaml', 'github-token': 'test-token', 'approve-label': 'mcp-gate-approved' };

describe('the GitHub Action on a pull request', { timeout: 60_000 }, () => {
  it('sets the outputs, writes the summary and annotations, creates the comment once and then updates it', async () => {
    api.comments = [{ id: 1, body: 'an unrelated review comment' }];
    api.calls = [];
    const dir = scratchProject();
    const first = await runAction(dir, INPUTS, prEvent());
    expect(first.code, first.stderr).toBe(1);
    expect(first.outputs).toMatchObject({ verdict: 'Rollback', 'breaking-count': '1', 'broken-cases': '3' });
    expect(first.outputs['report-path']).toMatch(/^reports\/\d{8}T\d{6}Z-baseline-to-candidate\.json$/);
    expect(first.summary).toContain('## ⛔ mcp-gate: **Rollback**');
    expect(first.summary).toContain('add the `mcp-gate-approved` label');
    expect(first.summary).toContain("is in [this run's artifacts](https://github.test/acme/tools/actions/runs/42)");
    expect(first.outputs['html-report-path']).toBe(first.outputs['report-path']!.replace(/\.json$/, '.html'));
    expect(readFileSync(join(dir, first.outputs['html-report-path']!), 'utf8')).toMatch(/^<!doctype html>/i);
    // Annotations: the broken cases point at their lines in the dataset.
    expect(first.stdout).toMatch(
      /^::error file=datasets\/support-ops\.cases\.yaml,line=6,title=mcp-gate case TG-001 broken::forbidden tool Deployments\.Rollback is exposed$/m,
    );
    expect(first.stdout).toMatch(
      /^::error title=mcp-gate required-argument-removed::"Incident\.Declare" no longer takes required argument "severity"\.$/m,
    );
    expect(first.stdout).toMatch(/^::warning title=mcp-gate tool-added-destructive::/m);
    expect(api.comments).toHaveLength(2);
    expect(api.comments[1]!.body.startsWith('<!-- mcp-gate:report key=gate.config.yaml -->')).toBe(true);

    const second = await runAction(dir, INPUTS, prEvent());
    expect(second.code).toBe(1);
    expect(api.comments).toHaveLength(2); // updated, not added again
    expect(api.calls.filter((c) => c.startsWith('POST'))).toHaveLength(1);
    expect(api.calls.filter((c) => c.startsWith('PATCH'))).toEqual(['PATCH /repos/acme/tools/issues/comments/101']);
    expect(api.comments[0]!.body).toBe('an unrelated review comment');
    expect(second.outputs['report-path']).not.toBe(first.outputs['report-path']);
  });

  it('on a pull request from a fork (read-only token) falls back to the summary and says so', async () => {
    api.comments = [];
    api.deny = true;
    try {
      const dir = scratchProject();
      const run = await runAction(dir, INPUTS, prEvent([], true));
      expect(run.code).toBe(1);
      expect(run.outputs.verdict).toBe('Rollback');
      expect(api.comments).toHaveLength(0);
      expect(run.summary).toContain('## ⛔ mcp-gate: **Rollback**');
      expect(run.summary).toContain(
        'No PR comment: the token cannot comment on this pull request (HTTP 403, a pull request from a fork gets a read-only token)',
      );
      expect(run.stdout).toContain('::warning title=mcp-gate::No PR comment');
    } finally {
      api.deny = false;
    }
  });

  it('the approve label turns Rollback into Promote for the run, and the report records it', async () => {
    api.comments = [];
    api.labels = ['mcp-gate-approved'];
    const dir = scratchProject();
    const run = await runAction(dir, INPUTS, prEvent(['mcp-gate-approved'], false, 'labeled', 'mcp-gate-approved'));
    api.labels = [];
    expect(run.code).toBe(0);
    expect(run.outputs.verdict).toBe('Promote');
    expect(run.outputs['breaking-count']).toBe('1'); // still listed
    const report = JSON.parse(readFileSync(join(dir, run.outputs['report-path']!), 'utf8')) as {
      decision: { verdict: string; approval: object; reasons: { code: string }[] };
    };
    expect(report.decision.approval).toMatchObject({ by: 'label', label: 'mcp-gate-approved', verdictBefore: 'Rollback' });
    expect(report.decision.reasons.map((r) => r.code)).toEqual(['required-argument-removed', 'tool-added-destructive', 'case-broken']);
    expect(run.summary).toContain('approved by label `mcp-gate-approved`; the gate said **Rollback**');
  });

  it('a config the gate cannot read is exit 3 with verdict "error" and the message in the summary', async () => {
    const dir = scratchProject();
    const run = await runAction(dir, { ...INPUTS, config: 'missing.yaml' }, prEvent());
    expect(run.code).toBe(3);
    expect(run.outputs.verdict).toBe('error');
    expect(run.summary).toContain('missing.yaml: file not found');
    expect(run.stdout).toMatch(/^::error title=mcp-gate could not decide::/m);
  });

  it('against a committed snapshot baseline, a tool change points at the tool in the snapshot', async () => {
    const dir = scratchProject();
    const config = readFileSync(join(dir, 'gate.config.yaml'), 'utf8');
    writeFileSync(
      join(dir, 'gate.config.yaml'),
      `${config.replace(/^baseline: .*$/m, 'baseline: committed')}\n`.replace(
        /^profiles:$/m,
        'profiles:\n  committed: { transport: snapshot, path: contracts/baseline.json }',
      ),
    );
    const snapshot = await runCliIn(dir, ['snapshot', '--profile', 'baseline', '-o', 'contracts/baseline.json']);
    expect(snapshot.code, snapshot.stderr).toBe(0);
    const run = await runAction(dir, { ...INPUTS, comment: 'false' }, prEvent());
    expect(run.code, run.stderr).toBe(1);
    const lines = readFileSync(join(dir, 'contracts/baseline.json'), 'utf8').split('\n');
    const line = lines.findIndex((l) => l.includes('"name": "Incident.Declare"')) + 1;
    expect(line).toBeGreaterThan(0);
    expect(run.stdout).toContain(`::error file=contracts/baseline.json,line=${line},title=mcp-gate required-argument-removed::`);
  });
});

describe("the PR comment is the gate's own, and never left stale", { timeout: 60_000 }, () => {
  const ours = (key = 'gate.config.yaml') =>
    api.comments.filter((c) => c.user?.login === BOT.login && c.body.startsWith(`<!-- mcp-gate:report key=${key} -->`));

  it('a comment someone else wrote, carrying the marker, is never edited: the gate writes its own', async () => {
    const planted = {
      id: 5,
      body: `${STICKY_MARKER}\n<!-- mcp-gate:report key=gate.config.yaml -->\n## ✅ mcp-gate: **Promote**`,
      user: { login: 'mallory' },
    };
    api.comments = [{ ...planted }];
    api.calls = [];
    const run = await runAction(scratchProject(), INPUTS, prEvent());
    expect(run.code, run.stderr).toBe(1);
    expect(api.comments[0]).toEqual(planted);
    expect(api.calls.filter((c) => c.startsWith('PATCH'))).toEqual([]);
    expect(ours()).toHaveLength(1);
    expect(ours()[0]!.body).toContain('**Rollback**');
  });

  it('two comment keys keep two comments on one pull request, each updated in place', async () => {
    api.comments = [];
    const dir = scratchProject();
    await runAction(dir, { ...INPUTS, 'comment-key': 'payments' }, prEvent());
    await runAction(dir, { ...INPUTS, 'comment-key': 'search' }, prEvent());
    await runAction(dir, { ...INPUTS, 'comment-key': 'payments' }, prEvent());
    expect(api.comments.map((c) => c.body.split('\n')[0])).toEqual([
      '<!-- mcp-gate:report key=payments -->',
      '<!-- mcp-gate:report key=search -->',
    ]);
  });

  it('a body GitHub refuses (422) is replaced by the current verdict alone, never left saying the old one', async () => {
    api.comments = [
      { id: 9, body: '<!-- mcp-gate:report key=gate.config.yaml -->\n## ✅ mcp-gate: **Promote**: an earlier push', user: BOT },
    ];
    api.maxBody = 500;
    try {
      const run = await runAction(scratchProject(), INPUTS, prEvent());
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('GitHub refused the full comment (HTTP 422); posting the verdict alone');
      expect(api.comments).toHaveLength(1);
      expect(api.comments[0]!.body).toMatch(
        /^<!-- mcp-gate:report key=gate\.config\.yaml -->\n## ⛔ mcp-gate: \*\*Rollback\*\* — `required-argument-removed`/,
      );
      expect(api.comments[0]!.body).toContain('It is in the job summary of [this run](https://github.test/acme/tools/actions/runs/42).');
      expect(run.summary).toContain('## ⛔ mcp-gate: **Rollback**');
    } finally {
      api.maxBody = 65_536;
    }
  });

  it('finds its comment on a later page, through the Link header', async () => {
    api.comments = Array.from({ length: 150 }, (_, i) => ({ id: 1000 + i, body: `review note ${i}`, user: { login: 'reviewer' } }));
    api.comments[120] = { id: 1120, body: '<!-- mcp-gate:report key=gate.config.yaml -->\nold', user: BOT };
    api.calls = [];
    const run = await runAction(scratchProject(), INPUTS, prEvent());
    expect(run.code, run.stderr).toBe(1);
    expect(api.calls.filter((c) => !c.startsWith('GET'))).toEqual(['PATCH /repos/acme/tools/issues/comments/1120']);
    expect(api.comments).toHaveLength(150);
  });

  it('a slow API times out: the verdict stands and the summary says the comment failed', async () => {
    api.comments = [];
    api.delayMs = 1500;
    try {
      const run = await runAction(scratchProject(), INPUTS, prEvent(), { env: { MCPGATE_GITHUB_TIMEOUT_MS: '300' } });
      expect(run.code).toBe(1);
      expect(run.outputs.verdict).toBe('Rollback');
      expect(run.summary).toMatch(/No PR comment: the comment failed: .*(timeout|aborted)/i);
    } finally {
      api.delayMs = 0;
    }
  });

  it('5xx answers are retried; a rate limit that outlasts the retries is named as one', async () => {
    api.comments = [];
    api.failNext = [502, 503];
    const retried = await runAction(scratchProject(), INPUTS, prEvent());
    expect(retried.code).toBe(1);
    expect(ours()).toHaveLength(1);
    api.failNext = [429, 429, 429];
    const { 'approve-label': _label, ...noLabel } = INPUTS; // so the first API call is the comment's
    const limited = await runAction(scratchProject(), noLabel, prEvent());
    api.failNext = [];
    expect(limited.summary).toContain("No PR comment: GitHub's API rate limit was hit (HTTP 429)");
  });

  it('a bad input is a usage error (exit 3, no stack trace), and an undecided run leaves the counts empty', async () => {
    const run = await runAction(scratchProject(), { ...INPUTS, 'fail-on': 'sometimes' }, prEvent());
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('action inputs: fail-on: must be rollback, hold or never, not "sometimes"');
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.outputs).toMatchObject({ verdict: 'error', 'breaking-count': '', 'broken-cases': '' });
  });

  it('a hostile candidate: annotations are the only workflow commands, and the comment mentions, links and shows nothing', async () => {
    api.comments = [];
    const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-action-inject-'));
    const server = join(ROOT, 'test/fixtures/servers/injection-server.mjs');
    writeFileSync(
      join(dir, 'gate.config.yaml'),
      `version: 1\nprofiles:\n  before: { command: node, args: [${JSON.stringify(server)}, before] }\n  after: { command: node, args: [${JSON.stringify(server)}, after] }\nbaseline: before\ncandidate: after\n`,
    );
    const run = await runAction(dir, INPUTS, prEvent());
    expect(run.code, run.stderr).toBe(1);
    const commands = [...run.stdout.split('\n'), ...run.stderr.split('\n')].filter((l) => /^\s*(::|##\[)/.test(l));
    expect(commands.length).toBeGreaterThan(0);
    for (const line of commands) expect(line).toMatch(/^::(error|warning|notice) (file=[^,:]*,)?(line=\d+,)?title=mcp-gate[^:]*::[^\n]*$/);
    expect(run.stdout + run.stderr).not.toContain('\u001b');
    expect(run.stdout).not.toMatch(/^::add-mask::/m);
    const body = ours()[0]!.body;
    expect(body).not.toMatch(/@octocat|!\[|https:\/\/evil|<img/);
  });
});

describe('an approval covers what was there when the label was given', { timeout: 90_000 }, () => {
  const LABEL = 'mcp-gate-approved';
  const verdictOf = (run: ActionRun) => run.outputs.verdict;

  it('given: Promote; a later push with the same findings: still Promote; a push with a new finding: the verdict stands and the label is stale; removed: not approved', async () => {
    api.comments = [];
    api.labels = [LABEL];
    const dir = scratchProject();
    const given = await runAction(dir, INPUTS, prEvent([LABEL], false, 'labeled', LABEL));
    expect(verdictOf(given), given.stderr).toBe('Promote');
    expect(given.stderr).toContain('(read from the API): it approves the findings of this run (the label was just given)');
    expect(api.comments[0]!.body).toMatch(/<!-- mcp-gate:approval [A-Za-z0-9+/=]+ -->/);

    const samePush = await runAction(dir, INPUTS, prEvent([LABEL]));
    expect(verdictOf(samePush), samePush.stderr).toBe('Promote');
    expect(samePush.stderr).toMatch(/it approves the \d+ findings present when it was given/);

    // The next push brings a new broken case, which the label never saw.
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
    const newFinding = await runAction(dir, INPUTS, prEvent([LABEL]));
    expect(newFinding.code).toBe(1);
    expect(verdictOf(newFinding)).toBe('Rollback');
    expect(api.comments[0]!.body).toContain(
      'label approved the findings present when it was given; 1 finding is new since, so the verdict stands',
    );

    // The payload still lists the label (a re-run repeats it), but the API says it is gone.
    api.labels = [];
    const removed = await runAction(dir, INPUTS, prEvent([LABEL]));
    expect(verdictOf(removed)).toBe('Rollback');
    expect(removed.stderr).not.toContain('carries the');
  });
});

describe('the token never reaches the process that starts the candidate', { timeout: 60_000 }, () => {
  it("action.yml: the gate step gets no token and drops the runner's; the comment step alone has it, and always runs", () => {
    const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as {
      runs: { steps: { name: string; if?: string; env?: Record<string, string>; run: string }[] };
    };
    const gate = action.runs.steps.find((s) => s.name === 'Gate')!;
    const post = action.runs.steps.find((s) => s.name === 'Comment')!;
    expect(Object.keys(gate.env ?? {}).filter((k) => /TOKEN/i.test(k))).toEqual([]);
    expect(gate.run).toMatch(
      /env -u ACTIONS_RUNTIME_TOKEN -u ACTIONS_ID_TOKEN_REQUEST_TOKEN -u ACTIONS_ID_TOKEN_REQUEST_URL -u GITHUB_TOKEN/,
    );
    expect(gate.env).toMatchObject({ MCPGATE_COMMENT_HANDOFF: 'true' });
    expect(post).toMatchObject({
      if: 'always()',
      env: { 'INPUT_GITHUB-TOKEN': '${{ inputs.github-token }}', MCPGATE_COMMENT_REQUEST: '${{ steps.gate.outputs.comment-request }}' },
    });
    expect(post.run).toMatch(/mcp-gate-action\.js" comment$/);
  });

  it('the gate step, with no token, hands the comment to the comment step, which posts it', async () => {
    api.comments = [];
    api.calls = [];
    const dir = scratchProject();
    const { 'github-token': _token, ...withoutToken } = INPUTS;
    const gate = await runAction(dir, withoutToken, prEvent(), { env: { MCPGATE_COMMENT_HANDOFF: 'true', RUNNER_TEMP: dir } });
    expect(gate.code, gate.stderr).toBe(1);
    expect(api.calls).toEqual([]);
    expect(gate.outputs['comment-request']).toMatch(/mcp-gate-comment-.*\/request\.json$/);
    const post = await runAction(dir, INPUTS, prEvent(), {
      env: { MCPGATE_COMMENT_REQUEST: gate.outputs['comment-request']! },
      args: ['comment'],
    });
    expect(post.code, post.stderr).toBe(0);
    expect(api.comments).toHaveLength(1);
    expect(api.comments[0]!.body).toMatch(/^<!-- mcp-gate:report key=gate\.config\.yaml -->\n## ⛔ mcp-gate: \*\*Rollback\*\*/);
  });
});

describe('the GitHub Action on a bundle config', { timeout: 60_000 }, () => {
  it('gives the bundle verdict as the output, and the per-server table in the summary and the comment', async () => {
    api.comments = [];
    const dir = scratchProject();
    const server = join(ROOT, 'examples/support-ops/dist/server.js');
    const profile = (p: string) => `{ command: node, args: [${server}, ${p}, --tag=${dir}], allowSideEffects: true }`;
    writeFileSync(
      join(dir, 'bundle.yaml'),
      [
        'version: 1',
        'profiles:',
        `  baseline: ${profile('baseline')}`,
        `  candidate: ${profile('candidate')}`,
        `  candidate-safe: ${profile('candidate-safe')}`,
        'servers:',
        '  desk: { baseline: baseline, candidate: candidate-safe, datasets: [datasets/support-ops.cases.yaml] }',
        '  desk-next: { baseline: baseline, candidate: candidate, datasets: [datasets/support-ops.cases.yaml] }',
        'reports: { dir: reports }',
      ].join('\n'),
    );
    const run = await runAction(dir, { ...INPUTS, config: 'bundle.yaml' }, prEvent());
    expect(run.code, run.stderr).toBe(1);
    expect(run.outputs.verdict).toBe('Rollback');
    expect(run.summary.startsWith(STICKY_MARKER)).toBe(true);
    expect(run.summary).toContain('desk-next');
    expect(run.summary).toMatch(/desk\b.*Promote/);
    expect(api.comments).toHaveLength(1);
    expect(api.comments[0]!.body).toContain('desk-next');
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
      'config',
      'baseline',
      'candidate',
      'fail-on',
      'report-dir',
      'comment',
      'comment-key',
      'approve-label',
      'github-token',
    ]);
    expect(Object.keys(action.outputs)).toEqual(['verdict', 'report-path', 'html-report-path', 'breaking-count', 'broken-cases']);
    expect(action.runs.using).toBe('composite');
    const gate = action.runs.steps.find((s) => s.id === 'gate')!;
    expect(gate.run).toMatch(/\n *node "\$\{\{ github\.action_path \}\}\/bin\/mcp-gate-action\.js"\n$/);
    // Every input reaches the entry point under the name it reads: the token only the comment step's.
    const post = action.runs.steps.find((s) => s.run?.endsWith(' comment'))!;
    for (const name of Object.keys(action.inputs)) {
      const step = name === 'github-token' ? post : gate;
      expect(step.env![`INPUT_${name.toUpperCase()}`], name).toBe(`\${{ inputs.${name} }}`);
    }
  });
});
