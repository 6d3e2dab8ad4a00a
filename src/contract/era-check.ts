import type { GateConfig, RemoteProfile, StdioProfile } from '../config/types.js';
import { SideUnavailableError } from '../connect/errors.js';
import { Session } from '../connect/session.js';
import type { SideDirs } from '../connect/side-dirs.js';
import { eraOf, erasDiffer } from '../findings/revision.js';
import type { EraCheck } from '../findings/types.js';
import { discover } from './discover.js';
import type { OpenSide } from './open-side.js';
import type { Contract, ServerIdentity } from './types.js';

/** What a run lends the check: a second session is tracked like the first, and stops at the run's deadline. */
export interface EraCheckRun {
  config: GateConfig;
  env: NodeJS.ProcessEnv;
  dirs: SideDirs | null;
  track: (session: Session) => void;
  expired: () => boolean;
  log: (line: string) => void;
}

/** The most characters of a server's answer an era check keeps. */
const ANSWER_MAX = 240;

/**
 * When the two sides negotiated revisions of different eras, asks the candidate what a client of
 * the baseline's revision gets: a server of SDK v2 negotiates the 2026 revision with the gate, yet
 * may still answer `initialize`. Only the baseline's revision is asked, in a second session (a
 * second process on stdio; on HTTP a second connection to the server already running), within the
 * usual startup and request timeouts. Null when the eras do not differ. Never rejects.
 */
export async function checkEra(baseline: ServerIdentity, cand: OpenSide | null, run: EraCheckRun): Promise<EraCheck | null> {
  const [revision, negotiated] = [baseline.protocolVersion, cand?.contract.server.protocolVersion];
  if (!cand || !revision || !erasDiffer(revision, negotiated)) return null;
  const { profile } = cand;
  if (profile.transport === 'snapshot') return said('not-checked', revision, 'nothing', 'it is a snapshot, with no server to ask');
  if (eraOf(revision) === 'modern') {
    // The candidate's own session already asked: the gate's client probes server/discover first.
    const tried = `the candidate's own session probed server/discover, offering ${revision}`;
    return said('not-served', revision, tried, `gave no 2026 answer (the session opened through initialize, at ${String(negotiated)})`);
  }
  if (run.expired()) return said('not-checked', revision, 'nothing', "the run's deadline had passed");
  run.log(`candidate: the eras differ (baseline ${revision}, candidate ${String(negotiated)}): asking a second session for ${revision}`);
  // The server an HTTP profile started is the one asked again: a second launch would only race it for its port.
  const started = performance.now();
  const asked = await askAt(revision, profile.transport === 'stdio' ? profile : { ...profile, launch: null }, cand.contract, run);
  run.log(`candidate: asked for ${revision}: ${asked.outcome} (${Math.round(performance.now() - started)} ms)`);
  return asked;
}

const said = (outcome: EraCheck['outcome'], revision: string, tried: string, answer: string): EraCheck => ({
  outcome,
  revision,
  tried,
  answer: answer.length > ANSWER_MAX ? `${answer.slice(0, ANSWER_MAX)}…` : answer,
});

/** The second session: opened at `revision`, its contract read and held against the one judged, then closed. */
async function askAt(revision: string, profile: StdioProfile | RemoteProfile, judged: Contract, run: EraCheckRun): Promise<EraCheck> {
  const check = (outcome: EraCheck['outcome'], answer: string) =>
    said(outcome, revision, `a second session sent initialize, offering ${revision}`, answer);
  const negotiated = String(judged.server.protocolVersion);
  let session: Session | null = null;
  try {
    session = await Session.open('candidate', profile, run.config.timeouts, run.config.limits, run.env, run.track, run.dirs, revision);
    const answered = session.identity().protocolVersion;
    if (answered !== revision) return check('not-served', `answered with ${String(answered)}`);
    const differs = listedApart(judged, await discover(session, run.config.limits));
    return differs.length
      ? check('differs', `answered ${revision} but listed another contract than at ${negotiated}: ${differs.join('; ')}`)
      : check('served', `answered ${revision} and listed the same contract (${counted(judged.tools.length)})`);
  } catch (error) {
    if (run.expired()) return check('not-checked', "the run's deadline passed before it answered");
    const why = error instanceof SideUnavailableError ? `${error.phase}: ${error.message}` : String(error);
    return check('not-served', session ? `answered ${revision}, but its contract could not be read (${why})` : `refused it (${why})`);
  } finally {
    await session?.close();
  }
}

const counted = (tools: number) => `${tools} tool${tools === 1 ? '' : 's'}`;

/**
 * What the second session lists apart from the contract the gate judged: tools listed by one only
 * or defined differently, then the prompts, resources and templates. The capabilities are left out:
 * they describe the session's protocol, which differs between eras by design.
 */
function listedApart(judged: Contract, listed: Contract): string[] {
  const hashes = (c: Contract) => new Map(c.tools.map((t) => [t.name, t.hash]));
  const [a, b] = [hashes(judged), hashes(listed)];
  const apart = [
    ...[...a.keys()].filter((name) => !b.has(name)).map((name) => `${name} (not listed at this revision)`),
    ...[...b.keys()].filter((name) => !a.has(name)).map((name) => `${name} (listed at this revision only)`),
    ...[...a].filter(([name, hash]) => b.has(name) && b.get(name) !== hash).map(([name]) => `${name} (defined differently)`),
  ];
  const shown = apart.length > 5 ? [...apart.slice(0, 5), `and ${apart.length - 5} more tools`] : apart;
  for (const list of ['prompts', 'resources', 'resourceTemplates'] as const) {
    const keys = (c: Contract) => JSON.stringify(c.features?.[list]?.map((entry) => entry.hash) ?? null);
    if (judged.features && listed.features && keys(judged) !== keys(listed))
      shown.push(`its ${list === 'resourceTemplates' ? 'resource templates' : list}`);
  }
  return shown;
}
