import { describe } from '../base/error-text.js';
import { GitHubApiError, type CommentsApi, type GateRun } from './github-api.js';

/**
 * Whether the run whose artifact the comment workflow reads is the gate: `workflow_run` fires for
 * any workflow of that name, and a pull request can add one (`name: mcp-gate`) that uploads a
 * report of its own, with a conclusion to match. So the run's file, as the API reports it, must be
 * the configured gate workflow (`gate-workflow`), and that file at the run's commit must be the
 * default branch's blob: a pull request that edits the gate workflow ran a gate it wrote. Returns
 * what failed, for "could not verify" (docs/github-action.md).
 */
export async function gateWorkflowProblems(api: CommentsApi, run: GateRun, configured: string): Promise<string[]> {
  const expected = configured.replace(/^\.\//, '');
  // A reusable or dynamic workflow's path may carry `@ref`; the file is what comes before it.
  const path = run.path?.split('@')[0] ?? null;
  if (path !== expected)
    return [
      `the run is of ${path ?? 'a workflow file the API does not name'}, not the gate workflow ${expected} (the gate-workflow input): a workflow a pull request adds can carry the gate's name`,
    ];
  let head: string | null;
  let base: string | null;
  try {
    [head, base] = await Promise.all([api.blobAt(expected, run.headSha), api.blobAt(expected, null)]);
  } catch (error) {
    const status = error instanceof GitHubApiError ? `HTTP ${error.status}` : describe(error);
    return [`${expected} could not be read (${status}); the comment workflow needs contents: read`];
  }
  if (!base) return [`the default branch has no ${expected} (the gate-workflow input)`];
  if (head !== base)
    return [
      `${expected} at the run's commit ${run.headSha.slice(0, 12)} is ${head ? 'not' : 'absent from'} the default branch's: the pull request changes the workflow that ran its gate, so its report is not trusted. Once the change is on the default branch, the gate it defines is.`,
    ];
  return [];
}
