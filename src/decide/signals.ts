import type { CaseResult } from '../cases/types.js';
import { declaresNoHint } from '../contract/annotations.js';
import type { Contract } from '../contract/types.js';
import { CODES, type JudgedCode } from '../findings/codes.js';
import { isClosingProbe } from '../findings/instance-path.js';
import { featureNameOf } from '../findings/subject.js';
import type { Change, Finding } from '../findings/types.js';
import { REMOVED_AFTER_DEPRECATION, removalKey } from './deprecation-window.js';

/** Anything that can move the verdict, reduced to what policy needs to judge and match it. */
export interface Signal {
  code: JudgedCode;
  tool: string | null;
  fingerprint: string | null;
  message: string;
  /**
   * What the signal is about beyond code and tool: a case (`dataset#id`), or the prompt, resource,
   * template or capability a change beside the tools names, so a reason can list them as it lists tools.
   */
  about?: string;
  /**
   * The strongest action this signal may ask for, whatever the rule says, with why: a break the
   * witness search could not confirm, or a new destructive tool that reaches no role's surface.
   */
  cap?: { action: 'hold' | 'ignore'; why: string };
  /**
   * The baseline finding (its code) this signal is part of the fix of: an output field the baseline
   * held only as null removed, an output schema the baseline's own results failed repaired. A reason
   * all of whose signals are says so ("held: part of a fix for …").
   */
  fixes?: string;
  /**
   * The roles whose share of the run this signal is: a case's roles, the roles of the cases that
   * forbid an exposed tool, a role finding's role. Changes and the audit's findings belong to no
   * role: they weigh on the run's verdict alone (decide/decide.ts decideByRole).
   */
  roles?: string[];
}

/** Which tools the datasets' roles can reach; null when no dataset defines a role. */
export type RoleReach = ((tool: string) => boolean) | null;

/** What the run knows beyond the changes, for the caps (capOf). */
export interface SignalContext {
  reach?: RoleReach;
  /**
   * Tools whose output schema the baseline's own results failed: loosening it is a repair
   * (docs/verdicts.md, "Repairs").
   */
  repairedOutputs?: Set<string>;
  /** Deprecated things whose removal the lifecycle allows, by removalKey (decide/deprecation-window.ts), with why. */
  calmRemovals?: ReadonlyMap<string, string>;
  /** Set when the baseline declares no hint on any of its tools (unannotatedSiblings): the candidate's tools that declare none either. */
  unannotated?: Unannotated;
}

interface Unannotated {
  /** The baseline's tools, every one without a hint. */
  siblings: number;
  tools: ReadonlySet<string>;
}

/**
 * A baseline with tools, none of which declares a hint, and the candidate's tools that declare none
 * either; null otherwise. Such a server has told its clients nothing, release after release: a new
 * bare tool may be judged like its siblings (`promotion.unannotatedServers`, decide/decide.ts).
 */
export function unannotatedSiblings(baseline: Contract, candidate: Contract | null): Unannotated | null {
  if (!candidate || !baseline.tools.length || !baseline.tools.every(declaresNoHint)) return null;
  return { siblings: baseline.tools.length, tools: new Set(candidate.tools.filter(declaresNoHint).map((t) => t.name)) };
}

const FEATURE_AREAS = new Set(['prompts', 'resources', 'capabilities']);
/** Codes of the features beside the tools: their signals carry the prompt, resource or capability as `about`. */
export const isFeatureCode = (code: JudgedCode): boolean => FEATURE_AREAS.has(CODES[code].area);

/** A signal's identity across runs: what an approval covers (see decide/decide.ts approveCovering). */
export const signalKey = (s: Signal): string => s.fingerprint ?? `${s.code}|${s.tool ?? ''}|${s.about ?? ''}`;

/**
 * Collects the signals of a run. Findings on the baseline are context, not signals, and candidate
 * findings that the baseline has too (`regression: false`) are pre-existing: reported, not judged.
 * Cases are judged the same way (cases/regression.ts): a case the baseline fails the same way is
 * `case-already-failing` (ignored unless a rule says otherwise), never `case-broken`.
 */
export function collectSignals(
  changes: Change[],
  candidateCases: CaseResult[],
  findings: Finding[],
  context: SignalContext = {},
): Signal[] {
  const signals: Signal[] = changes
    .filter((c) => !(c.code === 'protocol-version-changed' && c.severity === 'safe')) // an upgrade is news, not a risk
    .map((c) => {
      const feature = featureNameOf(c.subject);
      const cap = capOf(c, context);
      const fixes = fixOf(c, context);
      return {
        code: c.code,
        tool: c.tool,
        fingerprint: c.fingerprint,
        message: c.message,
        ...(feature && { about: feature }),
        ...(cap && { cap }),
        ...(fixes && { fixes }),
      };
    });
  signals.push(...exposureSignals(candidateCases));
  for (const result of candidateCases) {
    if (result.status !== 'failed') continue;
    const code = result.regression === false ? 'case-already-failing' : 'case-broken';
    signals.push({
      code,
      tool: null,
      fingerprint: null,
      message: `${result.id}: ${result.failures.map((f) => f.message).join('; ')}`,
      about: `${result.dataset}#${result.id}`,
      roles: rolesOf(result),
    });
  }
  for (const finding of findings) {
    if (finding.side !== 'candidate' || finding.regression === false) continue;
    signals.push({
      code: finding.code,
      tool: finding.tool,
      fingerprint: null,
      message: finding.message,
      ...(finding.caseId && { about: finding.caseId }),
      ...(finding.role !== undefined && { roles: [finding.role] }),
    });
  }
  return signals;
}

/**
 * One `forbidden-tool-exposed` signal per tool a candidate case forbids and finds exposed, naming
 * those cases, and belonging to their roles. An exposure the baseline's same case has too is
 * pre-existing, like the rest of that case.
 */
function exposureSignals(candidateCases: CaseResult[]): Signal[] {
  const exposed = new Map<string, { cases: string[]; roles: Set<string> }>();
  for (const result of candidateCases) {
    for (const failure of result.failures) {
      if (failure.code !== 'forbidden-tool-exposed' || !failure.tool || failure.regression === false) continue;
      const seen = exposed.get(failure.tool) ?? { cases: [], roles: new Set<string>() };
      seen.cases.push(result.id);
      for (const role of rolesOf(result)) seen.roles.add(role);
      exposed.set(failure.tool, seen);
    }
  }
  return [...exposed]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([tool, { cases, roles }]) => ({
      code: 'forbidden-tool-exposed',
      tool,
      fingerprint: null,
      message: `${tool} is exposed but forbidden by ${cases.join(', ')}`,
      roles: [...roles],
    }));
}

/** Every role a case counts for: the dataset's role, then the case's own `roles`. */
export const rolesOf = (result: CaseResult): string[] => result.roles ?? [result.role];

/** The baseline finding a change is part of the fix of (Signal.fixes), if any. */
function fixOf(c: Change, { repairedOutputs }: SignalContext): string | undefined {
  if (c.tool !== null && CODES[c.code].area === 'output' && repairedOutputs?.has(c.tool)) return 'structured-content-invalid';
  return c.results?.outcome === 'only-null' ? c.results.fixes : undefined;
}

/**
 * What caps a change at Hold. The original design blocks new destructive tools "in the role
 * surface": where roles are defined, one that reaches a role rolls back, one that reaches none is
 * held; where none is, every one is held for a person (decide/ lifts the cap when
 * `promotion.destructiveToolsOutsideRoles` is `rollback`). A schema break the witness search could
 * not confirm, or whose witness the live candidate answered without an error, is held with what
 * was tried. An output schema that the baseline's own results failed
 * is a repair when it changes: held at most, never rolled back. So is an output field the results
 * show still returned, or held by the baseline only as null. A new bare tool on a server that
 * declares no hints may be judged like its siblings, when `promotion.unannotatedServers` says so.
 */
function capOf(c: Change, { reach = null, repairedOutputs, calmRemovals, unannotated }: SignalContext): Signal['cap'] | undefined {
  const calm = REMOVED_AFTER_DEPRECATION.has(c.code) ? calmRemovals?.get(removalKey(c)) : undefined;
  if (calm) return { action: 'ignore', why: calm };
  if (c.code === 'tool-added-destructive-by-default' && c.tool !== null && unannotated?.tools.has(c.tool)) {
    // Applied only under promotion.unannotatedServers: like-siblings (decide/decide.ts capped).
    return { action: 'ignore', why: `like its siblings: the baseline declares no hint on any of its ${unannotated.siblings} tools` };
  }
  if (c.tool !== null && CODES[c.code].area === 'output' && repairedOutputs?.has(c.tool)) {
    return { action: 'hold', why: "the baseline's own results failed this output schema, so changing it is a repair" };
  }
  // What the run's results show of an output field (diff/observed-outputs.ts).
  if (c.results?.outcome === 'still-returned')
    return { action: 'hold', why: 'every result of the tool the candidate gave still carries the field' };
  if (c.results?.outcome === 'only-null') return { action: 'hold', why: "the baseline's results held the field only as null, or never" };
  if (c.results?.admitted)
    return { action: 'hold', why: "no result of the tool was seen, and the candidate's schema still lets the field come" };
  if (c.code === 'tool-added-destructive' && c.tool !== null && !(reach?.(c.tool) ?? false)) {
    return {
      action: 'hold',
      why: reach ? 'it reaches no role defined by the datasets' : 'no dataset defines a role, so there is no role surface it could enter',
    };
  }
  if (c.witness?.optionLike) {
    // Argument-injection hardening (diff/confirm.ts): what it refuses is what a command line reads as an option.
    return {
      action: 'hold',
      why: "every call it refuses passes an argument that starts with '-', which a command line reads as an option",
    };
  }
  if (isClosingProbe(c) && (c.witness?.live?.outcome === 'refuted' || c.witness?.live?.outcome === 'same-failure')) {
    // A closing the candidate does not enforce (diff/confirm-closed.ts): it refuses no call that worked.
    return { action: 'ignore', why: 'the candidate took, live, a call that sends an undeclared argument' };
  }
  if (c.witness?.live?.outcome === 'refuted') {
    // The candidate's own server answered the witness without an error (cases/witness-calls.ts).
    return { action: 'hold', why: 'the candidate answered the witness live without an error' };
  }
  if (c.witness?.live?.outcome === 'same-failure') {
    // Both sides failed on their way to another host with the same error: the candidate took the arguments.
    return { action: 'hold', why: 'both sides failed live on their way to another host with the same error, past the input' };
  }
  if (c.witness?.live?.outcome === 'default-kept') {
    // The same error on both sides names the argument's old default: the candidate still fills it in (diff/confirm-live.ts).
    return { action: 'hold', why: "both sides failed live with the same error, which names the argument's old default" };
  }
  if (c.witness?.live?.outcome === 'already-refused') {
    // The baseline refused it too, over the same argument: no call that worked is shown (diff/confirm-live.ts).
    return { action: 'hold', why: 'the baseline refused the witness live as invalid input too, over the same argument' };
  }
  // Calm rests on a proof (diff/confirm.ts): a search that found nothing holds, it never lets go.
  if (c.witness?.status === 'proven')
    return { action: 'ignore', why: c.witness.note ?? 'a proof shows no instance tells the schemas apart' };
  if (c.witness?.status === 'unconfirmed') return { action: 'hold', why: 'no call shows the break' };
  return undefined;
}
