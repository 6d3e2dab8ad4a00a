import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { InputError } from '../base/problems.js';
import { inert } from '../base/inert.js';
import { describe } from '../base/error-text.js';
import { ARTIFACT_CAPS, readArtifact, type Artifact } from './artifact.js';
import { unzipHandOff } from './artifact-zip.js';
import type { CommentsApi, GateRun } from './github-api.js';
import { input } from './github.js';

/**
 * Which gate run the comment workflow speaks for, and where its hand-off is. Two events start it:
 * - `workflow_run`: a gate run finished; actions/download-artifact left its hand-off in `artifact-dir`;
 * - `pull_request_target`, `labeled` or `unlabeled`: the approve label changed. Nothing of the pull
 *   request runs for that: the last finished gate run for the head commit is found through the API
 *   and its artifact read from there, so the comment and the status are rendered again from it.
 * Never a number or a commit that the artifact names.
 */
interface WorkflowRunPayload {
  id: number;
  event: string;
  head_sha: string;
  head_branch: string | null;
  head_repository?: { full_name?: string; owner?: { login?: string } } | null;
  pull_requests?: { number: number; head?: { sha?: string } }[];
}
interface LabelPayload {
  label?: { name?: string };
  pull_request?: { number: number; head?: { sha?: string; repo?: { full_name?: string } | null } };
}

export type Trigger =
  | { kind: 'run'; payload: WorkflowRunPayload }
  | { kind: 'label'; label: string; pr: { number: number; fromFork: boolean }; headSha: string };

/** The event this step runs on, checked: a workflow_run of the gate, or a label change on a pull request. */
export function triggerOf(env: NodeJS.ProcessEnv): Trigger {
  const event = (env.GITHUB_EVENT_PATH ? JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, 'utf8')) : {}) as {
    workflow_run?: WorkflowRunPayload;
  } & LabelPayload;
  if (env.GITHUB_EVENT_NAME === 'workflow_run' && event.workflow_run) return { kind: 'run', payload: event.workflow_run };
  const pr = event.pull_request;
  if (env.GITHUB_EVENT_NAME === 'pull_request_target' && pr && typeof pr.head?.sha === 'string')
    return {
      kind: 'label',
      label: event.label?.name ?? '',
      pr: { number: pr.number, fromFork: Boolean(pr.head.repo?.full_name && pr.head.repo.full_name !== env.GITHUB_REPOSITORY) },
      headSha: pr.head.sha,
    };
  throw new InputError([
    {
      file: 'action inputs',
      line: null,
      path: 'mode',
      message:
        'comment runs in a workflow on workflow_run, or on pull_request_target for label changes (see examples/workflows/mcp-gate-comment.yml)',
    },
  ]);
}

/** The gate run, its pull request and its hand-off; or why there is nothing to comment on. */
export async function gateRunOf(
  env: NodeJS.ProcessEnv,
  api: CommentsApi,
  trigger: Trigger,
  gateWorkflow: string,
): Promise<{ run: GateRun; pr: { number: number; fromFork: boolean }; artifact: Artifact } | { none: string }> {
  if (trigger.kind === 'run') {
    const { payload } = trigger;
    if (payload.event !== 'pull_request')
      return { none: `the gate's run was for a ${inert(payload.event)} event, not a pull request: nothing to comment on` };
    // The conclusion and commit come from the API; the artifact's claims are checked against them.
    const run = await api.run(payload.id);
    const pr = await pullRequestOf(api, payload, run.headSha);
    if (!pr) return { none: `no open pull request has ${run.headSha.slice(0, 12)} as its head: nothing to comment on` };
    return { run, pr, artifact: readArtifact(resolve(input(env, 'artifact-dir', 'mcp-gate-artifact'))) };
  }
  const label = input(env, 'approve-label');
  if (!label || trigger.label !== label)
    return { none: `the label ${inert(JSON.stringify(trigger.label))} is not the approve label: nothing to render again` };
  const id = await api.lastGateRun(basename(gateWorkflow), trigger.headSha);
  if (id === null)
    return {
      none: `no gate run has finished for ${trigger.headSha.slice(0, 12)} yet: the comment after it will read the label`,
    };
  return { run: await api.run(id), pr: trigger.pr, artifact: await downloaded(env, api, id) };
}

/** The hand-off of a run, read through the API (a label event has no run of its own to download it with). */
async function downloaded(env: NodeJS.ProcessEnv, api: CommentsApi, runId: number): Promise<Artifact> {
  const name = input(env, 'artifact-name', 'mcp-gate-report');
  const found = await api.artifactOf(runId, name);
  if (!found) return { kind: 'missing' };
  // The zip holds at most the three files, each within its cap.
  const bound = ARTIFACT_CAPS.reportBytes + 2 * ARTIFACT_CAPS.smallBytes + 64 * 1024;
  if (found.bytes > bound) return { kind: 'invalid', problems: [`the artifact ${name} is ${found.bytes} bytes, past ${bound}`] };
  let zip: Buffer;
  try {
    zip = await api.download(found.url, bound);
  } catch (error) {
    return { kind: 'invalid', problems: [`the artifact ${name} could not be downloaded: ${describe(error)}`] };
  }
  const unzipped = unzipHandOff(zip, env.RUNNER_TEMP || resolve('.'));
  return 'problem' in unzipped ? { kind: 'invalid', problems: [unzipped.problem] } : readArtifact(unzipped.dir);
}

/**
 * The pull request of the gate's run: the payload's `pull_requests` (a same-repository branch), or,
 * for a fork (whose payload lists none), the open pull request whose head is that branch at that
 * commit. Never a number the artifact claims.
 */
async function pullRequestOf(
  api: CommentsApi,
  payload: WorkflowRunPayload,
  sha: string,
): Promise<{ number: number; fromFork: boolean } | null> {
  const listed = payload.pull_requests?.find((p) => !p.head?.sha || p.head.sha === sha);
  if (listed) return { number: listed.number, fromFork: false };
  const owner = payload.head_repository?.owner?.login;
  if (!owner || !payload.head_branch) return null;
  return (await api.pullsAt(owner, payload.head_branch, sha))[0] ?? null;
}
