import { FAIL_ONS, type FailOn } from '../commands/io.js';
import { InputError } from '../base/problems.js';
import type { Decision, Verdict } from '../decide/decide.js';
import { inert, markdownBlock, markdownCode } from '../base/inert.js';
import { render } from '../report/formats.js';
import { VERDICT_ICON } from '../report/markdown.js';
import { redact } from '../base/secrets.js';
import { approversOf } from './approvers.js';
import { applyApproval, approvalContext, approvalState, approvalStatusText, type Applied } from './approval.js';
import type { Artifact } from './artifact.js';
import { gateWorkflowProblems } from './gate-workflow.js';
import { gateRunOf, triggerOf } from './gate-run.js';
import { commentKey, markersOf, postComment, shortBody } from './comment.js';
import { CommentsApi, GitHubApiError, type GateRun } from './github-api.js';
import { appendSummary, input, setOutputs } from './github.js';
import { describe } from '../base/error-text.js';

/**
 * `mode: comment`: the second workflow, on `workflow_run` (and on `pull_request_target` for a label
 * change, which renders the last gate run again: gate-run.ts). It runs the default branch's code,
 * starts no server and checks out nothing of the pull request. It holds the write token, and
 * posts what the gate job's artifact says, once it has checked it:
 * - the run must be of the gate workflow, unchanged from the default branch's (gate-workflow.ts);
 * - the artifact is read as untrusted (artifact.ts: named files, caps, the report schema);
 * - the verdict must agree with the gate job's conclusion, read from the API;
 * - the comment is rendered anew from the JSON through the inert markdown renderer;
 * - the approve label is applied here, and a commit status carries the final verdict.
 * Anything it cannot check is posted as "could not verify", and the workflow fails.
 */

/** What the comment workflow concluded: posted as the comment, the summary and the status. */
type Outcome =
  | {
      kind: 'verdict';
      decision: Decision;
      markdown: string;
      note: string | null;
      approval: Omit<Applied, 'decision'> & { context: string };
    }
  | { kind: 'bundle'; verdict: Verdict; note: string | null }
  | { kind: 'undecided'; reason: string | null; conclusion: string | null }
  | { kind: 'unverified'; problems: string[] };

/** The gate workflow's file, unless `gate-workflow` names another. */
const GATE_WORKFLOW = '.github/workflows/mcp-gate.yml';

const fails = (verdict: Verdict, failOn: FailOn): boolean =>
  failOn === 'never' ? false : failOn === 'rollback' ? verdict === 'Rollback' : verdict !== 'Promote';

/**
 * Checks the artifact against the gate job's conclusion. A verdict that fails under `fail-on`
 * must come with a failed job, one that passes with a successful job; anything else means the
 * artifact is not what the gate decided (or the job failed for another reason), and nothing is shown.
 */
export function verify(artifact: Artifact, conclusion: string | null, failOn: FailOn): Outcome | { kind: 'ok'; verdict: Verdict } {
  if (conclusion !== 'success' && conclusion !== 'failure') return { kind: 'undecided', reason: null, conclusion };
  switch (artifact.kind) {
    case 'invalid':
      return { kind: 'unverified', problems: artifact.problems };
    case 'missing':
      return conclusion === 'failure'
        ? { kind: 'undecided', reason: null, conclusion }
        : { kind: 'unverified', problems: ['the gate job succeeded but uploaded no report'] };
    case 'undecided':
      return conclusion === 'failure'
        ? { kind: 'undecided', reason: artifact.reason, conclusion }
        : { kind: 'unverified', problems: ['the gate job succeeded but its artifact says it could not decide'] };
    case 'bundle':
    case 'report': {
      const verdict = artifact.kind === 'bundle' ? artifact.verdict : artifact.report.decision.verdict;
      if (verdict === null)
        return conclusion === 'failure' ? { kind: 'undecided', reason: null, conclusion } : unverified(verdict, conclusion);
      if (artifact.kind === 'report' && (artifact.report.decision.approval || artifact.report.decision.staleApproval))
        return { kind: 'unverified', problems: ['the report carries an approval; the gate job never approves (labels are applied here)'] };
      const expected = fails(verdict, failOn) ? 'failure' : 'success';
      return conclusion === expected ? { kind: 'ok', verdict } : unverified(verdict, conclusion, failOn);
    }
  }
}

const unverified = (verdict: Verdict | null, conclusion: string, failOn?: FailOn): Outcome => ({
  kind: 'unverified',
  problems: [
    `the report says ${verdict ?? 'undecided'}, but the gate job's conclusion is ${conclusion}${failOn ? ` (fail-on: ${failOn})` : ''}`,
  ],
});

/** The comment's markdown for each outcome but a verified report (that one is the report renderer's). */
function body(outcome: Exclude<Outcome, { kind: 'verdict' }>, run: GateRun | null): string {
  const link = run?.htmlUrl ? ` ([the gate's run](${run.htmlUrl}))` : '';
  if (outcome.kind === 'undecided') {
    return [
      `## ⛔ mcp-gate: could not decide`,
      '',
      `The gate job${link} ended ${markdownCode(outcome.conclusion ?? 'without a conclusion')} without a verdict, so no verdict is shown.`,
      '',
      outcome.reason
        ? `The reason, as the gate job wrote it:\n\n${markdownBlock(outcome.reason)}`
        : 'The gate job left no reason; its log has it.',
    ].join('\n');
  }
  if (outcome.kind === 'unverified') {
    return [
      `## ⛔ mcp-gate: could not verify`,
      '',
      `The gate job's report${link} could not be checked, so no verdict is shown and this workflow fails:`,
      '',
      markdownBlock(outcome.problems.slice(0, 10).join('\n')),
    ].join('\n');
  }
  return [
    `## ${VERDICT_ICON[outcome.verdict]} mcp-gate: **${outcome.verdict}** (bundle)`,
    '',
    `Each server's verdict and reasons are in the job summary of the gate's run${link}.`,
    ...(outcome.note ? ['', `> [!NOTE]\n> ${outcome.note}`] : []),
  ].join('\n');
}

export async function commentWorkflow(env: NodeJS.ProcessEnv): Promise<number> {
  const { failOn, trigger, api } = commentInputs(env);
  const gateWorkflow = input(env, 'gate-workflow', GATE_WORKFLOW);
  const found = await gateRunOf(env, api, trigger, gateWorkflow);
  if ('none' in found) {
    appendSummary(env, `mcp-gate: ${found.none}.\n`);
    return 0;
  }
  const { run, pr, artifact } = found;
  const job = input(env, 'gate-job');
  const conclusion = job ? await api.jobConclusion(run.id, job) : run.conclusion;
  if (conclusion === undefined)
    throw new InputError([
      { file: 'action inputs', line: null, path: 'gate-job', message: `no job named ${JSON.stringify(job)} in run ${run.id}` },
    ]);
  // The run must be the gate, as the default branch defines it, before anything it left is read.
  const forged = await gateWorkflowProblems(api, run, gateWorkflow);
  const outcome = forged.length
    ? ({ kind: 'unverified', problems: forged } as const)
    : await outcomeOf(env, api, artifact, verify(artifact, conclusion, failOn), { failOn, pr: pr.number, run });
  return publish(env, api, { pr, run, failOn }, outcome);
}

/** The mode's inputs and event, checked: fail-on, the event (gate-run.ts), and a token. */
function commentInputs(env: NodeJS.ProcessEnv) {
  const failOn = input(env, 'fail-on', 'hold') as FailOn;
  if (!FAIL_ONS.includes(failOn))
    throw new InputError([
      { file: 'action inputs', line: null, path: 'fail-on', message: `must be rollback, hold or never, not ${JSON.stringify(failOn)}` },
    ]);
  const trigger = triggerOf(env);
  approversOf(input(env, 'approvers')); // a bad list is a usage error before anything is read
  const api = CommentsApi.fromEnv(env, input(env, 'github-token') || env.GITHUB_TOKEN || '');
  if (!api) throw new InputError([{ file: 'action inputs', line: null, path: 'github-token', message: 'mode: comment needs a token' }]);
  return { failOn, trigger, api };
}

/** What the comment says: the verified verdict (with a label's approval), the bundle's, or why there is none. */
async function outcomeOf(
  env: NodeJS.ProcessEnv,
  api: CommentsApi,
  artifact: Artifact,
  checked: ReturnType<typeof verify>,
  { failOn, pr, run }: { failOn: FailOn; pr: number; run: GateRun },
): Promise<Outcome> {
  const label = input(env, 'approve-label');
  const approvers = approversOf(input(env, 'approvers'));
  const neverNote =
    failOn === 'never' ? 'With `fail-on: never` the gate job always succeeds, so its conclusion cannot confirm this verdict.' : null;
  if (checked.kind !== 'ok') return checked;
  if (artifact.kind === 'bundle') return { kind: 'bundle', verdict: checked.verdict, note: neverNote };
  const report = (artifact as Extract<Artifact, { kind: 'report' }>).report;
  const explicitKey = input(env, 'comment-key') ? commentKey(env) : null;
  const place = { pr, key: commentKey(env), sha: run.headSha, context: approvalContext(explicitKey) };
  const { decision, ...approval } = label
    ? applyApproval(report.decision, label, await approvalState(api, { label, approvers }, place, markersOf(env)), place)
    : { decision: report.decision, line: null, made: null, note: null };
  try {
    // Rendered anew from the checked JSON: the renderer makes every server string inert.
    const markdown = redact(
      render('report', { ...report, decision }, 'markdown', { approveLabel: label || undefined, reportLink: run.htmlUrl ?? undefined }),
    );
    return { kind: 'verdict', decision, markdown, note: neverNote, approval: { ...approval, context: place.context } };
  } catch (error) {
    return {
      kind: 'unverified',
      problems: [`the report could not be rendered: ${error instanceof Error ? error.message : String(error)}`],
    };
  }
}

/** The comment posted, the job summary, the step's outputs and the commit status; 1 when the report could not be verified. */
async function publish(
  env: NodeJS.ProcessEnv,
  api: CommentsApi,
  { pr, run, failOn }: { pr: { number: number; fromFork: boolean }; run: GateRun; failOn: FailOn },
  outcome: Outcome,
): Promise<number> {
  const warning = outcome.kind === 'verdict' ? [outcome.approval.note, await recordApproval(api, outcome)].filter(Boolean) : [];
  const text =
    outcome.kind === 'verdict'
      ? outcome.markdown +
        warning.map((w) => `\n> [!WARNING]\n> ${w}\n`).join('') +
        (outcome.note ? `\n> [!NOTE]\n> ${outcome.note}\n` : '')
      : body(outcome, run);
  const verdict = outcome.kind === 'verdict' ? outcome.decision.verdict : outcome.kind === 'bundle' ? outcome.verdict : null;
  const short = shortBody(
    verdict ?? (outcome.kind === 'undecided' ? 'could not decide' : 'could not verify'),
    outcome.kind === 'verdict' ? outcome.decision.reasons.map((r) => r.code) : [],
    run.htmlUrl ?? undefined,
  );
  const record = outcome.kind === 'verdict' ? outcome.approval.line : null;
  const note = await postComment(env, api, pr, { markdown: text, short, record });
  appendSummary(env, note ? `${text}\n\n> [!NOTE]\n> ${note}\n` : text);
  setOutputs(env, { verdict: verdict ?? (outcome.kind === 'undecided' ? 'error' : 'unverified'), 'pull-request': pr.number });
  await status(env, api, run, verdict, failOn, outcome.kind);
  if (outcome.kind === 'unverified') {
    process.stderr.write(`mcp-gate: could not verify the gate's report: ${inert(outcome.problems.join('; '))}\n`);
    return 1;
  }
  return 0;
}

/**
 * A record made on this run is authenticated before the comment carries it: a commit status on the
 * head, written by this token, whose description holds the record's digest (approval.ts). When it
 * cannot be written, the comment says so: the next run will approve nothing.
 */
async function recordApproval(api: CommentsApi, outcome: Extract<Outcome, { kind: 'verdict' }>): Promise<string | null> {
  const { made, context } = outcome.approval;
  if (!made) return null;
  try {
    await api.setStatus(made.sha, { state: 'success', context, description: approvalStatusText(made) });
    return null;
  } catch (error) {
    const why = error instanceof GitHubApiError ? `HTTP ${error.status}` : describe(error);
    process.stderr.write(`mcp-gate: could not set the ${context} status: ${why}\n`);
    return `The approval could not be recorded (${markdownCode(why)}; the comment workflow needs \`statuses: write\`): it holds for this run, and the next run approves nothing until the label is removed and added again.`;
  }
}

/** The commit status (`mcp-gate`, or `mcp-gate/<comment-key>`): the final verdict, approval included, for branch protection. */
async function status(
  env: NodeJS.ProcessEnv,
  api: CommentsApi,
  run: GateRun,
  verdict: Verdict | null,
  failOn: FailOn,
  kind: Outcome['kind'],
): Promise<void> {
  if (input(env, 'status', 'true') === 'false') return;
  const context = input(env, 'comment-key') ? `mcp-gate/${commentKey(env)}` : 'mcp-gate';
  const state = verdict === null ? 'error' : fails(verdict, failOn) ? 'failure' : 'success';
  const description =
    verdict !== null
      ? `${verdict}${kind === 'verdict' ? '' : ' (bundle)'}`
      : kind === 'undecided'
        ? 'could not decide'
        : 'could not verify';
  try {
    await api.setStatus(run.headSha, { state, context, description, targetUrl: run.htmlUrl ?? undefined });
  } catch (error) {
    // The comment stands; a missing `statuses: write` only costs the status.
    process.stderr.write(`mcp-gate: could not set the ${context} status: ${error instanceof Error ? error.message : String(error)}\n`);
  }
}
