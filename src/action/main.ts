import { relative } from 'node:path';
import { emit, exitCodeOf, FAIL_ONS, failureText, toStderr, type CommandIO, type FailOn } from '../commands/io.js';
import { runCommand } from '../commands/run.js';
import { InputError } from '../base/problems.js';
import { guardProcess } from '../connect/process-guard.js';
import { STICKY_MARKER } from '../report/markdown.js';
import { render } from '../report/formats.js';
import { command } from '../report/workflow-commands.js';
import { markdownBlock } from '../base/inert.js';
import type { Report } from '../report/types.js';
import { redact } from '../base/secrets.js';
import type { BundleSummary } from '../report/bundle-summary.js';
import { newArtifactDir, writeArtifact } from './artifact.js';
import { commentWorkflow } from './comment-workflow.js';
import { appendSummary, input, pullRequestOf, setOutputs } from './github.js';

/**
 * The GitHub Action's entry point (action.yml runs it with the runner's Node). In the gate job
 * (the default mode) it gates the profiles named by its inputs, then writes the outputs, the job
 * summary, the annotations and the hand-off for the comment workflow (`artifact-dir`). It holds no
 * token and posts nothing: the candidate is the pull request's code and runs beside it. With
 * `mode: comment` (comment-workflow.ts) it is the second workflow, which posts.
 * Like src/cli.ts, it is an entry point: it alone sets the exit code.
 */

const SECOND_WORKFLOW = 'examples/workflows/mcp-gate-comment.yml in mcp-gate (docs/github-action.md)';

/** Inputs of earlier versions that the gate job no longer acts on: each says where its job went. */
function movedInputs(env: NodeJS.ProcessEnv): void {
  const moved: string[] = [];
  if (input(env, 'comment') === 'true') moved.push('`comment`');
  if (env.MCPGATE_TOKEN_GIVEN === 'true') moved.push('`github-token`');
  if (input(env, 'approve-label')) moved.push('`approve-label`');
  if (!moved.length) return;
  const message = `${moved.join(', ')} ${moved.length === 1 ? 'does' : 'do'} nothing in the gate job: the job that starts the pull request's code holds no token, so it neither comments nor reads labels. The comment, the approve label and the status are the comment workflow's (mode: comment, on workflow_run): see ${SECOND_WORKFLOW}.`;
  process.stderr.write(`mcp-gate: ${message}\n`);
  process.stdout.write(
    `${command({ level: 'notice', title: 'mcp-gate: the comment moved to a second workflow', message, place: null })}\n`,
  );
}

async function main(env: NodeJS.ProcessEnv, interrupted: () => boolean, artifact: string | null): Promise<number> {
  const cwd = process.cwd();
  const failOn = gateInputs(env);
  movedInputs(env);
  const pr = pullRequestOf(env);
  const captured = capturingIO(env, cwd, interrupted);
  const config = input(env, 'config', 'gate.config.yaml');
  const outcome = await runCommand(
    {
      config,
      baseline: input(env, 'baseline') || undefined,
      candidate: input(env, 'candidate') || undefined,
      reportDir: input(env, 'report-dir') || undefined,
      format: 'json',
      // On a pull request, the gate's own config and datasets are compared with the PR's base.
      policyBase: pr?.baseSha ?? undefined,
    },
    captured.io,
  );
  if (outcome.kind === 'verdict' && !outcome.report) {
    const summary = JSON.parse(captured.printed()) as BundleSummary;
    if (artifact) writeArtifact(artifact, { bundleVerdict: summary.verdict });
    return bundleResult(env, summary, exitCodeOf(outcome, failOn));
  }
  if (outcome.kind !== 'verdict' || !outcome.report) {
    const code = exitCodeOf(outcome, failOn);
    if (code === 3) undecided(env, artifact, captured.failure().trim() || 'the gate could not decide');
    return code;
  }
  if (artifact) writeArtifact(artifact, { report: outcome.report });
  reportResult(env, { report: outcome.report, reportPath: outcome.reportPath ?? null }, captured.io);
  return exitCodeOf(outcome, failOn);
}

/** The gate job's own inputs, checked; its fail-on. */
function gateInputs(env: NodeJS.ProcessEnv): FailOn {
  const failOn = input(env, 'fail-on', 'hold') as FailOn;
  if (!FAIL_ONS.includes(failOn))
    throw new InputError([
      { file: 'action inputs', line: null, path: 'fail-on', message: `must be rollback, hold or never, not ${JSON.stringify(failOn)}` },
    ]);
  const commentInput = input(env, 'comment', 'false');
  if (commentInput !== 'true' && commentInput !== 'false')
    throw new InputError([
      { file: 'action inputs', line: null, path: 'comment', message: `must be true or false, not ${JSON.stringify(commentInput)}` },
    ]);
  const mode = input(env, 'mode', 'gate');
  if (mode !== 'gate')
    throw new InputError([
      { file: 'action inputs', line: null, path: 'mode', message: `must be gate or comment, not ${JSON.stringify(mode)}` },
    ]);
  return failOn;
}

/** The run command's IO: what it prints is kept (this entry point writes workflow commands itself), and so are its errors. */
function capturingIO(env: NodeJS.ProcessEnv, cwd: string, interrupted: () => boolean) {
  let printed = '';
  let failure = '';
  const io: CommandIO = {
    stdout: (text) => (printed += text),
    log: (line) => process.stderr.write(`${toStderr(line)}\n`),
    error: (line) => {
      failure += `${line}\n`;
      process.stderr.write(`${toStderr(line)}\n`);
    },
    env,
    cwd,
    colour: false,
    interrupted,
  };
  return { io, printed: () => printed, failure: () => failure };
}

/** One server's report: the HTML page and release notes beside it, the outputs, the annotations and the job summary. */
function reportResult(env: NodeJS.ProcessEnv, run: { report: Report; reportPath: string | null }, io: CommandIO): void {
  const { report, reportPath } = run;
  // The page people open from the run's artifacts, beside its JSON.
  const htmlPath = reportPath ? reportPath.replace(/\.json$/, '.html') : '';
  if (htmlPath) emit(render('report', report, 'html'), htmlPath, io);
  // The release notes beside it (docs/releases.md), for a release job to paste or attach.
  const changelogPath = reportPath ? reportPath.replace(/\.json$/, '.changelog.md') : '';
  if (changelogPath) emit(render('report', report, 'changelog'), changelogPath, io);
  setOutputs(env, {
    verdict: report.decision.verdict,
    'report-path': reportPath ?? '',
    'html-report-path': htmlPath,
    'changelog-path': changelogPath,
    'breaking-count': report.diff.changes.filter((c) => c.severity === 'breaking').length,
    'broken-cases': report.candidate.cases.failed,
  });
  // The report names files from the working directory; GitHub places annotations from the workspace.
  const sourceRoot = relative(env.GITHUB_WORKSPACE ?? io.cwd, io.cwd)
    .split('\\')
    .join('/');
  process.stdout.write(redact(render('report', report, 'workflow-annotations', { sourceRoot })));
  const runUrl =
    env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID
      ? `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`
      : undefined;
  // The markdown form redacts before rendering, so no secret is cut in half by a clipped cell and left in part.
  appendSummary(env, redact(render('report', report, 'markdown', { reportLink: runUrl })));
}

/**
 * A bundle config (`servers:`): the bundle's verdict, and its summary table (each server's verdict,
 * reasons and report) in the job summary. Per-change annotations stay with each server's own report.
 */
function bundleResult(env: NodeJS.ProcessEnv, summary: BundleSummary, code: number): number {
  setOutputs(env, {
    verdict: summary.verdict ?? 'error',
    'report-path': '',
    'html-report-path': '',
    'changelog-path': '',
    'breaking-count': '',
    'broken-cases': '',
  });
  appendSummary(env, redact(`${STICKY_MARKER}\n${render('bundle', summary, 'markdown')}`));
  return code;
}

/** An undecided run (exit 3): the summary says so, and the hand-off carries the reason for the comment. */
function undecided(env: NodeJS.ProcessEnv, artifact: string | null, text: string): void {
  // Undecided: no count is known, so the counts are empty rather than a reassuring 0.
  setOutputs(env, { verdict: 'error', 'report-path': '', 'html-report-path': '', 'breaking-count': '', 'broken-cases': '' });
  appendSummary(env, `### ⛔ mcp-gate could not decide\n\n${markdownBlock(redact(text))}\n`);
  if (artifact) writeArtifact(artifact, { undecided: redact(text) });
}

/**
 * The action. bin/mcp-gate-action.js (what action.yml runs) loads the bundle and calls this;
 * loading the module starts nothing. With `comment` as its argument it is the comment workflow.
 */
export function runAction(): void {
  if (process.argv[2] === 'comment') {
    commentWorkflow(process.env).then(
      (code) => (process.exitCode = code),
      (error: unknown) => {
        process.stderr.write(`${toStderr(failureText(error))}\n`);
        process.exitCode = 3;
      },
    );
    return;
  }
  // Set first, so the workflow can upload the hand-off however the run ends.
  let artifact: string | null = null;
  try {
    artifact = newArtifactDir(process.env);
    setOutputs(process.env, { 'artifact-dir': artifact });
  } catch (error) {
    process.stderr.write(`mcp-gate: could not make the artifact folder: ${failureText(error)}\n`);
  }
  const interrupted = guardProcess();
  main(process.env, interrupted, artifact).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      const text = failureText(error);
      process.stderr.write(`${toStderr(text)}\n`);
      process.stdout.write(`${command({ level: 'error', title: 'mcp-gate could not decide', message: redact(text), place: null })}\n`);
      undecided(process.env, artifact, text);
      process.exitCode = 3;
    },
  );
}
