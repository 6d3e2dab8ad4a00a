import { describe } from '../base/error-text.js';
import { STICKY_MARKER, VERDICT_ICON } from '../report/markdown.js';
import { redact } from '../base/secrets.js';
import { command } from '../report/workflow-commands.js';
import { CommentsApi, GitHubApiError } from './github-api.js';
import { input } from './github.js';

/**
 * The sticky pull-request comment: its marker and key, and the body GitHub is sent (or the short
 * one when it refuses the full body). Only the comment workflow (comment-workflow.ts) posts it:
 * the gate job, which starts the candidate, holds no token.
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
 * `record`, the approve label's record (approval-record.ts), is the line right after the marker in
 * either body: the one place it is read from, before anything a server wrote.
 */
export async function postComment(
  env: NodeJS.ProcessEnv,
  api: CommentsApi,
  pr: { number: number; fromFork: boolean },
  { markdown, short, record }: { markdown: string; short: string; record: string | null },
): Promise<string | null> {
  const marker = markerOf(commentKey(env));
  // Comments of earlier versions carry the plain marker; the key the config path gives takes them over.
  const markers = markersOf(env);
  const head = record ? `${marker}\n${record}` : marker;
  const body = (text: string) => `${head}\n${text.startsWith(STICKY_MARKER) ? text.slice(STICKY_MARKER.length + 1) : text}`;
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
        ? `the token cannot comment on this pull request (HTTP ${status}); the comment workflow needs \`pull-requests: write\``
        : `the comment failed: ${describe(error)}`;
    process.stdout.write(
      `${command({ level: 'warning', title: 'mcp-gate', message: redact(`No PR comment: ${why}. The report is in the job summary.`), place: null })}\n`,
    );
    return `No PR comment: ${why}. The report is in this job summary instead.`;
  }
}
