import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { emit, exitCodeOf, FAIL_ONS, failureText, toStderr, type CommandIO, type FailOn } from '../commands/io.js';
import { runCommand } from '../commands/run.js';
import { loadConfig } from '../config/load.js';
import { readSource } from '../config/source.js';
import { InputError } from '../config/problems.js';
import { guardProcess } from '../connect/process-guard.js';
import { STICKY_MARKER } from '../report/markdown.js';
import { render } from '../report/formats.js';
import { markdownBlock } from '../inert.js';
import type { Report } from '../report/types.js';
import { redact } from '../secrets.js';
import type { BundleSummary } from '../bundle/summary.js';
import { annotations, command, type Locator, type Place } from './annotations.js';
import { approvalState, type ApprovalState } from './approval.js';
import { appendSummary, CommentsApi, input, pullRequestOf, setOutputs } from './github.js';
import { comment, commentStep, markersOf, shortBody } from './comment.js';

/**
 * The GitHub Action's entry point (action.yml runs it with the runner's Node). It gates the
 * profiles named by its inputs, then: outputs, job summary, annotations, and the sticky PR
 * comment, falling back to the summary when the token cannot comment (a pull request from a fork).
 * Like src/cli.ts, it is an entry point: it alone sets the exit code.
 */
async function main(env: NodeJS.ProcessEnv, interrupted: () => boolean): Promise<number> {
  const cwd = process.cwd();
  const failOn = input(env, 'fail-on', 'hold') as FailOn;
  if (!FAIL_ONS.includes(failOn))
    throw new InputError([
      { file: 'action inputs', line: null, path: 'fail-on', message: `must be rollback, hold or never, not ${JSON.stringify(failOn)}` },
    ]);
  const commentInput = input(env, 'comment', 'true');
  if (commentInput !== 'true' && commentInput !== 'false')
    throw new InputError([
      { file: 'action inputs', line: null, path: 'comment', message: `must be true or false, not ${JSON.stringify(commentInput)}` },
    ]);
  const approveLabel = input(env, 'approve-label');
  const pr = pullRequestOf(env);
  const approval = approveLabel ? await approvalOf(env, approveLabel) : null;
  const approvedByLabel = approveLabel && approval?.labels.includes(approveLabel) ? approveLabel : undefined;
  if (approvedByLabel) {
    const covers =
      approval!.covers === null
        ? 'the findings of this run (the label was just given)'
        : `the ${approval!.covers.length} findings present when it was given`;
    process.stderr.write(
      `mcp-gate: the pull request carries the "${approvedByLabel}" label (read from ${approval!.source === 'api' ? 'the API' : 'the event'}): it approves ${covers}\n`,
    );
  }

  let printed = '';
  const io: CommandIO = {
    stdout: (text) => (printed += text), // the JSON the command prints; this entry point writes workflow commands itself
    log: (line) => process.stderr.write(`${toStderr(line)}\n`),
    error: (line) => process.stderr.write(`${toStderr(line)}\n`),
    env,
    cwd,
    colour: false,
    interrupted,
  };
  const config = input(env, 'config', 'gate.config.yaml');
  const outcome = await runCommand(
    {
      config,
      baseline: input(env, 'baseline') || undefined,
      candidate: input(env, 'candidate') || undefined,
      reportDir: input(env, 'report-dir') || undefined,
      format: 'json',
      approvedByLabel,
      approvalCovers: approval?.covers ?? null,
      // On a pull request, the gate's own config and datasets are compared with the PR's base.
      policyBase: pr?.baseSha ?? undefined,
    },
    io,
  );
  if (outcome.kind === 'verdict' && !outcome.report)
    return bundleResult(env, pr, JSON.parse(printed) as BundleSummary, exitCodeOf(outcome, failOn));
  if (outcome.kind !== 'verdict' || !outcome.report) return exitCodeOf(outcome, failOn);
  const report = outcome.report;

  // The page people open from the run's artifacts, beside its JSON.
  const htmlPath = outcome.reportPath ? outcome.reportPath.replace(/\.json$/, '.html') : '';
  if (htmlPath) emit(render('report', report, 'html'), htmlPath, io);
  setOutputs(env, {
    verdict: report.decision.verdict,
    'report-path': outcome.reportPath ?? '',
    'html-report-path': htmlPath,
    'breaking-count': report.diff.changes.filter((c) => c.severity === 'breaking').length,
    'broken-cases': report.candidate.cases.failed,
  });
  for (const line of annotations(report, locator(report, config, env, cwd))) process.stdout.write(`${redact(line)}\n`);

  const runUrl =
    env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID
      ? `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`
      : undefined;
  // The markdown form redacts before rendering, so no secret is cut in half by a clipped cell and left in part.
  const markdown = redact(render('report', report, 'markdown', { approveLabel: approveLabel || undefined, reportLink: runUrl }));
  const note = await comment(
    env,
    pr,
    markdown,
    shortBody(
      report.decision.verdict,
      report.decision.reasons.map((r) => r.code),
      runUrl,
    ),
  );
  appendSummary(env, note ? `${markdown}\n> [!NOTE]\n> ${note}\n` : markdown);
  return exitCodeOf(outcome, failOn);
}

/**
 * A bundle config (`servers:`): the bundle's verdict, and its summary table (each server's verdict,
 * reasons and report) in the job summary and the sticky comment. Per-change annotations stay with
 * each server's own report.
 */
async function bundleResult(
  env: NodeJS.ProcessEnv,
  pr: ReturnType<typeof pullRequestOf>,
  summary: BundleSummary,
  code: number,
): Promise<number> {
  setOutputs(env, {
    verdict: summary.verdict ?? 'error',
    'report-path': '',
    'html-report-path': '',
    'breaking-count': '',
    'broken-cases': '',
  });
  const markdown = redact(`${STICKY_MARKER}\n${render('bundle', summary, 'markdown')}`);
  const runUrl =
    env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID
      ? `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`
      : undefined;
  const note = await comment(
    env,
    pr,
    markdown,
    shortBody(
      summary.verdict ?? 'undecided',
      summary.decision.reasons.map((r) => r.code),
      runUrl,
    ),
  );
  appendSummary(env, note ? `${markdown}\n> [!NOTE]\n> ${note}\n` : markdown);
  return code;
}

/**
 * The approve label's state: from the approval step's file (two steps: the gate holds no token), or
 * read here with the token when there is one, or from the event alone.
 */
async function approvalOf(env: NodeJS.ProcessEnv, label: string): Promise<ApprovalState | null> {
  const file = env.MCPGATE_APPROVAL_STATE;
  if (file) return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ApprovalState) : null;
  const token = input(env, 'github-token') || env.GITHUB_TOKEN || '';
  return approvalState(env, label, CommentsApi.fromEnv(env, token), markersOf(env));
}

/** The approval step (action.yml): reads the label and the approval record with the token, for the gate step. */
async function approvalStep(env: NodeJS.ProcessEnv): Promise<number> {
  const label = input(env, 'approve-label');
  if (!label) return 0;
  const state = await approvalState(
    env,
    label,
    CommentsApi.fromEnv(env, input(env, 'github-token') || env.GITHUB_TOKEN || ''),
    markersOf(env),
  );
  if (!state) return 0;
  const file = join(mkdtempSync(join(env.RUNNER_TEMP || tmpdir(), 'mcp-gate-approval-')), 'state.json');
  writeFileSync(file, JSON.stringify(state));
  setOutputs(env, { 'approval-state': file });
  return 0;
}

/** Lines in the repository: a case's `id:` in its dataset, and a tool's name in a committed snapshot baseline. */
function locator(report: Report, configFile: string, env: NodeJS.ProcessEnv, cwd: string): Locator {
  const workspace = env.GITHUB_WORKSPACE ?? cwd;
  const inRepo = (file: string) => relative(workspace, resolve(cwd, file));
  let snapshot: { file: string; lines: string[] } | null = null;
  // Only a snapshot baseline has tool lines in the repository; only then is the config read again, for its path.
  if (report.baseline.transport === 'snapshot') {
    try {
      const profile = loadConfig(configFile, env, { baseline: input(env, 'baseline') || undefined }, cwd).profiles[report.baseline.profile];
      if (profile?.transport === 'snapshot' && existsSync(profile.path))
        snapshot = { file: profile.path, lines: readFileSync(profile.path, 'utf8').split('\n') };
    } catch {
      // the run already read this config; without it, annotations simply carry no snapshot lines
    }
  }
  // Each dataset is read once, however many of its cases are placed (a Document for lines is slow to build).
  const datasets = new Map<string, ReturnType<typeof readSource>>();
  return {
    caseLine(dataset: string, caseId: string): Place | null {
      let parsed = datasets.get(dataset);
      if (!parsed) {
        parsed = readSource(resolve(cwd, dataset), dataset);
        datasets.set(dataset, parsed);
      }
      if (!parsed.ok) return { file: inRepo(dataset), line: null };
      const cases = (parsed.source.value as { cases?: { id?: string }[] }).cases ?? [];
      const index = cases.findIndex((c) => c.id === caseId);
      return { file: inRepo(dataset), line: index === -1 ? null : parsed.source.lineOf(['cases', index, 'id']) };
    },
    toolLine(tool: string): Place | null {
      if (!snapshot) return null;
      const at = snapshot.lines.findIndex((l) => l.includes(`"name": ${JSON.stringify(tool)}`));
      return at === -1 ? null : { file: inRepo(snapshot.file), line: at + 1 };
    },
  };
}

/**
 * The action. bin/mcp-gate-action.js (what action.yml runs) loads the bundle and calls this;
 * loading the module starts nothing. With `comment` as its argument it is the comment step.
 */
export function runAction(): void {
  if (process.argv[2] === 'comment' || process.argv[2] === 'approval') {
    (process.argv[2] === 'comment' ? commentStep : approvalStep)(process.env).then(
      (code) => (process.exitCode = code),
      (error: unknown) => {
        process.stderr.write(`${toStderr(failureText(error))}\n`);
        process.exitCode = 3;
      },
    );
    return;
  }
  const interrupted = guardProcess();
  main(process.env, interrupted).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      const text = failureText(error);
      process.stderr.write(`${toStderr(text)}\n`);
      process.stdout.write(`${command({ level: 'error', title: 'mcp-gate could not decide', message: redact(text), place: null })}\n`);
      // Undecided: no count is known, so the counts are empty rather than a reassuring 0.
      setOutputs(process.env, { verdict: 'error', 'report-path': '', 'html-report-path': '', 'breaking-count': '', 'broken-cases': '' });
      appendSummary(process.env, `### ⛔ mcp-gate could not decide\n\n${markdownBlock(redact(text))}\n`);
      process.exitCode = 3;
    },
  );
}
