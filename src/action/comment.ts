import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe } from '../error-text.js';
import { STICKY_MARKER, VERDICT_ICON } from '../report/markdown.js';
import { redact } from '../secrets.js';
import { command } from './annotations.js';
import { appendSummary, CommentsApi, GitHubApiError, input, pullRequestOf, setOutputs } from './github.js';

/**
 * The sticky pull-request comment: its marker and key, the body GitHub is sent (or the short one
 * when it refuses the full body), and the comment step that posts what the gate step left, holding
 * the token the gate step never has.
 */

/**
 * The key that gives each gate on a pull request its own comment: the `comment-key` input, or the
 * config path. Only characters that cannot end the HTML comment the marker is written in.
 */
export function commentKey(env: NodeJS.ProcessEnv): string {
  return (input(env, 'comment-key') || input(env, 'config', 'gate.config.yaml')).replace(/[^\w./-]/g, '_').slice(0, 100);
}

const markerOf = (key: string) => `<!-- mcp-gate:report key=${key} -->`;
/** The markers this gate's comment may carry: its key's, and (with no explicit key) the plain one of earlier versions. */
export const markersOf = (env: NodeJS.ProcessEnv): string[] =>
  input(env, 'comment-key') ? [markerOf(commentKey(env))] : [markerOf(commentKey(env)), STICKY_MARKER];

/** What replaces the comment when GitHub refuses the full body: the verdict, never a stale one. */
export function shortBody(verdict: string, codes: string[], runUrl: string | undefined): string {
  const icon = (VERDICT_ICON as Record<string, string>)[verdict] ?? '⛔';
  return [
    `## ${icon} mcp-gate: **${verdict}**${codes.length ? ` — ${codes.map((c) => `\`${c}\``).join(', ')}` : ''}`,
    '',
    `The full report did not fit in a comment. It is in the job summary${runUrl ? ` of [this run](${runUrl})` : ''}.`,
  ].join('\n');
}

/**
 * Posts or updates this gate's comment (see CommentsApi.upsert). When GitHub refuses the full body
 * (422: too long or invalid), the comment is replaced by a short one with the current verdict, so a
 * stale verdict is never left standing. Returns a note for the summary when it could not comment.
 */
export async function comment(
  env: NodeJS.ProcessEnv,
  pr: ReturnType<typeof pullRequestOf>,
  markdown: string,
  short: string,
): Promise<string | null> {
  if (input(env, 'comment', 'true') === 'false' || !pr) return null;
  // Two steps (action.yml): the gate, which starts the candidate, holds no token and leaves the
  // comment in a file; the comment step, which starts nothing, posts it with the token.
  if (env.MCPGATE_COMMENT_HANDOFF === 'true' && env.MCPGATE_ACTION_STEP !== 'comment') {
    const file = join(mkdtempSync(join(env.RUNNER_TEMP || tmpdir(), 'mcp-gate-comment-')), 'request.json');
    writeFileSync(file, JSON.stringify({ markdown, short } satisfies CommentRequest));
    setOutputs(env, { 'comment-request': file });
    return null;
  }
  const api = CommentsApi.fromEnv(env, input(env, 'github-token') || env.GITHUB_TOKEN || '');
  if (!api) return 'No PR comment: no github-token was given. The report is in this job summary.';
  const marker = markerOf(commentKey(env));
  // Comments of earlier versions carry the plain marker; the key the config path gives takes them over.
  const markers = markersOf(env);
  const body = (text: string) => `${marker}\n${text.startsWith(STICKY_MARKER) ? text.slice(STICKY_MARKER.length + 1) : text}`;
  try {
    let done;
    try {
      done = await api.upsert(pr.number, markers, body(markdown));
    } catch (error) {
      if (!(error instanceof GitHubApiError && (error.status === 422 || error.status === 413))) throw error;
      process.stderr.write(`mcp-gate: GitHub refused the full comment (HTTP ${error.status}); posting the verdict alone\n`);
      done = await api.upsert(pr.number, markers, body(short));
    }
    process.stderr.write(`mcp-gate: PR comment ${done.action}: ${done.url}\n`);
    return null;
  } catch (error) {
    const status = error instanceof GitHubApiError ? error.status : null;
    const limited = error instanceof GitHubApiError && error.rateLimited;
    const why = limited
      ? `GitHub's API rate limit was hit (HTTP ${status}); the comment is left for the next run`
      : status === 403 || status === 404
        ? `the token cannot comment on this pull request (HTTP ${status}${pr.fromFork ? ', a pull request from a fork gets a read-only token' : ''})`
        : `the comment failed: ${describe(error)}`;
    process.stdout.write(
      `${command({ level: 'warning', title: 'mcp-gate', message: redact(`No PR comment: ${why}. The report is in the job summary.`), place: null })}\n`,
    );
    return `No PR comment: ${why}. The report is in this job summary instead.`;
  }
}

interface CommentRequest {
  markdown: string;
  short: string;
}

/**
 * The comment step: posts the comment the gate step left in `MCPGATE_COMMENT_REQUEST`, and adds a
 * note to the job summary when it cannot. Nothing to post (no pull request, comments off, or a gate
 * that could not decide) is not an error.
 */
export async function commentStep(env: NodeJS.ProcessEnv): Promise<number> {
  const file = env.MCPGATE_COMMENT_REQUEST;
  if (!file || !existsSync(file)) return 0;
  const request = JSON.parse(readFileSync(file, 'utf8')) as CommentRequest;
  const note = await comment({ ...env, MCPGATE_ACTION_STEP: 'comment' }, pullRequestOf(env), request.markdown, request.short);
  if (note) appendSummary(env, `> [!NOTE]\n> ${note}\n`);
  return 0;
}
