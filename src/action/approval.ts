import { readFileSync } from 'node:fs';
import { readApprovalRecord } from '../report/approval-record.js';
import type { CommentsApi } from './github.js';

/**
 * What an approve label means on this run. Labels are read from the API at run time (the event
 * payload is frozen: a re-run repeats it). The label approves the findings present when it was
 * given: on the run its `labeled` event starts, it covers that run's findings, and the gate's PR
 * comment records them (APPROVAL_RECORD); on later pushes it covers those alone.
 */
export interface ApprovalState {
  labels: string[];
  /** What the approval covers: null when the label was given for this run; [] when nothing is known. */
  covers: string[] | null;
  /** Where the labels came from, for the progress log. */
  source: 'api' | 'event';
}

interface LabelEvent {
  action?: string;
  label?: { name?: string };
  pull_request?: { number: number; labels?: { name: string }[] };
}

export async function approvalState(
  env: NodeJS.ProcessEnv,
  label: string,
  api: CommentsApi | null,
  markers: string[],
): Promise<ApprovalState | null> {
  const event = env.GITHUB_EVENT_PATH ? (JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, 'utf8')) as LabelEvent) : {};
  const pr = event.pull_request;
  if (!pr) return null;
  const givenNow = event.action === 'labeled' && event.label?.name === label;
  if (!api) return { labels: (pr.labels ?? []).map((l) => l.name), covers: givenNow ? null : [], source: 'event' };
  try {
    const labels = await api.labels(pr.number);
    const covers = givenNow ? null : (readApprovalRecord(await api.ownComment(pr.number, markers), label) ?? []);
    return { labels, covers, source: 'api' };
  } catch (error) {
    // The API is down or rate limited: the payload's labels, and no record, so a label covers only a run it was just given for.
    process.stderr.write(
      `mcp-gate: could not read the labels from the API (${error instanceof Error ? error.message : String(error)}); using the event's\n`,
    );
    return { labels: (pr.labels ?? []).map((l) => l.name), covers: givenNow ? null : [], source: 'event' };
  }
}
