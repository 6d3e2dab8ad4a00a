import { InputError } from '../base/problems.js';
import { markdownCode } from '../base/inert.js';
import { GitHubApiError, type CommentsApi } from './github-api.js';

/**
 * Who may approve with the label (docs/github-action.md, Approvals). A label is anyone's who can
 * triage the pull request, so the comment workflow asks who added it last (the events)
 * and takes it only from a login the `approvers` input lists or, with no list, from someone whose
 * role on the repository is admin or maintain. Otherwise the label is ignored, and the comment
 * says who added it and what it takes.
 */
const ROLES = ['admin', 'maintain'];

/** The `approvers` input: logins (a leading `@` allowed), or null for the repository's admins and maintainers. */
export function approversOf(text: string): string[] | null {
  const logins = text
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((l) => l.replace(/^@/, ''));
  const bad = logins.filter((l) => !/^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\[bot\])?$/.test(l));
  if (bad.length)
    throw new InputError([
      {
        file: 'action inputs',
        line: null,
        path: 'approvers',
        message: `must list GitHub logins (teams are not read: name their members), not ${bad.map((l) => JSON.stringify(l)).join(', ')}`,
      },
    ]);
  return logins.length ? logins : null;
}

const status = (error: unknown) => (error instanceof GitHubApiError ? `HTTP ${error.status}` : String(error));

/** Why the label on `pr` does not count, or null when the person who added it may approve. */
export async function labelRefusal(api: CommentsApi, pr: number, label: string, approvers: string[] | null): Promise<string | null> {
  let actor: string | null;
  try {
    actor = await api.labeledBy(pr, label);
  } catch (error) {
    return `who added it could not be read (${status(error)}; the comment workflow needs \`pull-requests: read\`)`;
  }
  if (!actor) return 'no event of the pull request says who added it';
  const who = markdownCode(actor);
  if (approvers)
    return approvers.some((a) => a.toLowerCase() === actor.toLowerCase())
      ? null
      : `it was added by ${who}, who is not among the approvers (${approvers.map(markdownCode).join(', ')}, the \`approvers\` input); one of them must add it`;
  let role: string | null;
  try {
    role = await api.roleOf(actor);
  } catch (error) {
    return `the role of ${who}, who added it, could not be read (${status(error)})`;
  }
  return role && ROLES.includes(role)
    ? null
    : `it was added by ${who}, whose role on this repository is ${role ? markdownCode(role) : 'none'}; it takes someone with the admin or maintain role (or a login the \`approvers\` input lists) to add it`;
}
