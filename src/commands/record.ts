import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { writeFileAtomic } from '../base/atomic-write.js';
import { loadDatasets } from '../cases/load.js';
import { InputError, type Problem } from '../base/problems.js';
import { readSource } from '../input/source.js';
import type { GateConfig, Profile } from '../config/types.js';
import { openSide, type OpenSide } from '../contract/open-side.js';
import { sideDirsOf, type SideDirs } from '../connect/side-dirs.js';
import { ofProfile, SideUnavailableError } from '../connect/errors.js';
import type { Contract } from '../contract/types.js';
import { declaresNoHint } from '../contract/annotations.js';
import { consentGap, type SideConsent } from '../cases/consent.js';
import { packageFile } from '../base/package-root.js';
import { recordTools, type Recording } from '../record/record.js';
import { readsAsLookup } from '../diff/lookup-name.js';
import { mergeDataset, RECORDED_MARK, renderDataset } from '../record/write.js';
import { readConfig, type CommandIO, type Outcome } from './io.js';
import { isObject } from '../base/json-object.js';

export interface RecordFlags {
  config: string;
  profile?: string;
  output?: string;
  args?: string;
  force: boolean;
  /** Also call the tools record would propose (no hints, named as lookups): a person's consent on the command line. */
  confirmLookups?: boolean;
}

const commandLine = (path: string, message: string): Problem => ({ file: 'command line', line: null, path, message });

/** `mcp-gate record`: a profile's read-only tools called twice, what they returned frozen as a dataset. */
export async function recordCommand(flags: RecordFlags, io: CommandIO): Promise<Outcome> {
  const config = readConfig(flags.config, io);
  const chosen = chooseProfile(config, flags.profile, io);
  const name = chosen.name;
  // A git profile records the server of its ref's tree, as run starts it.
  const profile = chosen.profile.git
    ? await (await import('../connect/git-baseline.js')).readyProfile(config, name, io.env, (line) => io.log(`mcp-gate: ${line}`), io.cwd)
    : chosen.profile;
  const givenArgs = flags.args ? readArgsFile(resolve(io.cwd, flags.args), io.cwd) : {};
  const target = outputOf(config, flags.output, io.cwd);
  const written = await recordInto(
    { config, name, profile, givenArgs, target, force: flags.force, confirmLookups: flags.confirmLookups },
    io,
  );
  if (written && !config.datasets.includes(target)) {
    io.log(
      `mcp-gate: record: add ${relative(dirname(config.file ?? io.cwd), target)} to datasets in ${relative(io.cwd, config.file ?? '') || 'the config'} so that run replays it`,
    );
  }
  return written ? { kind: 'ok' } : { kind: 'undecided' };
}

export interface RecordJob {
  config: GateConfig;
  name: string;
  profile: Profile;
  givenArgs: Record<string, Record<string, unknown>>;
  /** Absolute path of the dataset. */
  target: string;
  force: boolean;
  /** `--confirm-lookups`: the tools lookupsToPropose names are called, their cases allowing side effects. */
  confirmLookups?: boolean;
}

/**
 * Records one profile into a dataset: a new file, or new tools added to the one there (all of it
 * anew with `force`). The text is checked as a dataset before it replaces anything, so a failed
 * record leaves the old file as it was. False when there was nothing to write.
 */
export async function recordInto(job: RecordJob, io: CommandIO): Promise<boolean> {
  const shown = relative(io.cwd, job.target) || job.target;
  io.log(`mcp-gate: record: reading the tools of profile "${job.name}"`);
  const { recordings, contract } = await recordProfile(job, io);
  const notReadOnly = recordings.filter((r) => r.skipped?.includes(' is not read-only ')).map((r) => r.tool);
  if (notReadOnly.length) io.log(`mcp-gate: record: not read-only, so not called (left commented out): ${notReadOnly.join(', ')}`);
  const lookups = lookupsToPropose(contract, notReadOnly);
  if (lookups.length)
    io.log(
      `mcp-gate: record: of those, these declare no hints and are named like lookups: ${lookups.join(', ')}. If calling them changes nothing, run record --force --confirm-lookups, or list them in the profile's safeTools and run record --force: run then calls them on the candidate too, and a result that differs from what was recorded fails its case`,
    );
  for (const r of recordings) if (r.skipped && !notReadOnly.includes(r.tool)) io.log(`mcp-gate: record: ${r.tool}: ${r.skipped}`);
  const dataset = existsSync(job.target) && !job.force ? merged(job, recordings, shown, io) : anew(job, recordings, contract, shown, io);
  if (typeof dataset === 'boolean') return dataset;
  // A dataset is written only once it loads as one.
  writeFileAtomic(job.target, dataset.text, { check: (temp) => void loadDatasets([temp]), tempExtension: '.yaml' });
  io.log(`mcp-gate: record: ${dataset.summary}`);
  return true;
}

/**
 * The profile's contract, and each tool called twice (the second pass in a server process of its
 * own). Each process gets the folders of its own that `run` gives a side (a fresh TMPDIR, and HOME
 * where the profile isolates it), so what it answers from its environment is recorded as it is
 * gated: a TMPDIR's path, which differs between the two processes, is found volatile.
 */
async function recordProfile(job: RecordJob, io: CommandIO): Promise<{ recordings: Recording[]; contract: Contract }> {
  const made: SideDirs[] = [];
  const open = () => {
    const dirs = sideDirsOf('baseline', job.profile, io.env);
    if (dirs) made.push(dirs);
    return openSide(
      'baseline',
      job.profile,
      job.config,
      io.env,
      () => undefined,
      (line) => io.log(`mcp-gate: ${line}`),
      dirs,
    ).catch((error: unknown) => {
      throw error instanceof SideUnavailableError ? ofProfile(job.name, error) : error;
    });
  };
  try {
    return await recordOpened(job, io, open);
  } finally {
    for (const dirs of made) dirs.remove();
  }
}

async function recordOpened(
  job: RecordJob,
  io: CommandIO,
  open: () => Promise<OpenSide>,
): Promise<{ recordings: Recording[]; contract: Contract }> {
  const side = await open();
  // The second pass runs in a server process of its own: a pid, a per-process id or a counter
  // that two calls to one process share differs there, and is found volatile.
  let current: typeof side | null = side;
  const callFor = async (pass: 0 | 1) => {
    if (pass === 1) {
      await side.session?.close();
      current = null;
      current = await open();
    }
    const session = current?.session;
    if (!session) throw new Error(`profile "${job.name}" has no live server to record`);
    return (tool: string, args: Record<string, unknown>) => session.callTool(tool, args);
  };
  const safeTools = job.profile.transport === 'snapshot' ? [] : job.profile.safeTools;
  const consent = { allowSideEffects: job.profile.allowSideEffects, safeTools };
  const confirmed = job.confirmLookups ? lookupsToPropose(side.contract, uncalled(side.contract, consent)) : [];
  if (job.confirmLookups)
    io.log(
      confirmed.length
        ? `mcp-gate: record: --confirm-lookups: calling ${confirmed.join(', ')} (no hints, named like lookups); their cases say sideEffects: allowed`
        : 'mcp-gate: record: --confirm-lookups: no tool to confirm (none declares no hint, is named like a lookup and is not already callable)',
    );
  try {
    const recordings = await recordTools(side.contract, callFor, {
      ...consent,
      confirmed,
      givenArgs: job.givenArgs,
      concurrency: job.config.cases.concurrency,
      log: io.log,
    });
    return { recordings, contract: side.contract };
  } finally {
    await current?.session?.close();
  }
}

/** Written text and what to say of it; true when there is nothing to write, false when there is nothing to record. */
type DatasetText = { text: string; summary: string } | boolean;

/** New tools added to the dataset there, which keeps its cases. */
function merged(job: RecordJob, recordings: Recording[], shown: string, io: CommandIO): DatasetText {
  let merged;
  try {
    merged = mergeDataset(readFileSync(job.target, 'utf8'), recordings, shown);
  } catch (error) {
    throw new InputError([{ file: shown, line: null, path: 'cases', message: (error as Error).message.replace(`${shown}: `, '') }]);
  }
  if (!merged.added.length) {
    io.log(`mcp-gate: record: ${shown} already has a case for every tool; nothing added (--force writes it anew)`);
    return true;
  }
  return { text: merged.text, summary: `added ${merged.added.length} tool(s) to ${shown}, kept its ${merged.kept} case(s)` };
}

/** A dataset of every tool, written anew; when no tool could be called, it says why. */
function anew(job: RecordJob, recordings: Recording[], contract: Contract, shown: string, io: CommandIO): DatasetText {
  if (!recordings.length) {
    io.error(`mcp-gate: record: profile "${job.name}" lists no tool; ${shown} was not written`);
    return false;
  }
  const recorded = recordings.filter((r) => !r.skipped).length;
  const server = [contract.server.name, contract.server.version].filter(Boolean).join(' ') || 'unnamed server';
  const schemaPath = relative(dirname(job.target), packageFile('schemas/dataset.schema.json'));
  const nothingCalled = recorded ? undefined : whyNothingCalled(contract.tools.every((t) => t.annotations === null));
  const text = renderDataset(recordings, { schemaPath, profile: job.name, server, role: 'recorded' }, nothingCalled);
  if (!recorded) io.log(`mcp-gate: record: ${nothingCalled}`);
  return {
    text,
    summary: recorded
      ? `wrote ${shown}: ${recorded} case(s), ${recordings.length - recorded} tool(s) left commented out`
      : `wrote ${shown}: no tool could be called, so its ${recordings.length} case(s) are commented out with the reasons, beside one that checks the tools are listed`,
  };
}

/** What the dataset says when no tool could be called, and what a person can do about it. */
function whyNothingCalled(unannotated: boolean): string {
  return unannotated
    ? "The server annotates no tool, so by the spec's defaults every tool may change something and none was called. List the tools that are safe to call in the profile's safeTools (or set allowSideEffects: true), then run record --force."
    : 'No tool could be called or recorded (each says why below). Fix what they name, then run record --force.';
}

/** The profile to record: --profile, else the baseline, else (a snapshot baseline has no server) the candidate. */
function chooseProfile(config: GateConfig, wanted: string | undefined, io: CommandIO): { name: string; profile: Profile } {
  const names = Object.keys(config.profiles);
  if (wanted) {
    const profile = config.profiles[wanted];
    if (!profile) throw new InputError([commandLine('--profile', `"${wanted}" is not a profile; profiles: ${names.join(', ')}`)]);
    if (profile.transport === 'snapshot')
      throw new InputError([
        commandLine('--profile', `"${wanted}" is a snapshot: record calls tools on a live server; pick a profile with a command or url`),
      ]);
    return { name: wanted, profile };
  }
  for (const name of [config.baseline, config.candidate]) {
    const profile = config.profiles[name];
    if (profile && profile.transport !== 'snapshot') {
      if (name !== config.baseline)
        io.log(`mcp-gate: record: the baseline "${config.baseline}" is a snapshot; recording the candidate "${name}"`);
      return { name, profile };
    }
  }
  throw new InputError([
    commandLine('--profile', `is required: neither the baseline nor the candidate has a live server; profiles: ${names.join(', ')}`),
  ]);
}

/** -o, else a dataset of the config that record wrote before, else datasets/recorded.cases.yaml beside the config. */
function outputOf(config: GateConfig, output: string | undefined, cwd: string): string {
  if (output) return resolve(cwd, output);
  const earlier = config.datasets.find((d) => existsSync(d) && readFileSync(d, 'utf8').includes(RECORDED_MARK));
  return earlier ?? resolve(dirname(config.file ?? resolve(cwd, 'gate.config.yaml')), 'datasets/recorded.cases.yaml');
}

/** The --args file: tool name -> its arguments (an object), checked with the file and key named. */
function readArgsFile(path: string, cwd: string): Record<string, Record<string, unknown>> {
  const shown = relative(cwd, path) || path;
  const parsed = readSource(path, shown);
  if (!parsed.ok) throw new InputError(parsed.problems);
  const value = parsed.source.value;
  if (!isObject(value))
    throw new InputError([
      { file: shown, line: 1, path: '', message: 'must map tool names to their arguments, e.g. Tickets.Search: { query: refund }' },
    ]);
  const problems: Problem[] = [];
  for (const [tool, args] of Object.entries(value)) {
    if (!isObject(args))
      problems.push({
        file: shown,
        line: parsed.source.lineOf([tool]),
        path: tool,
        message: 'must be an object of arguments, e.g. { query: refund }',
      });
  }
  if (problems.length) throw new InputError(problems);
  return value as Record<string, Record<string, unknown>>;
}

/**
 * Of the tools not called for want of hints, the ones to propose for `safeTools`: a tool that declares
 * no hint at all and whose name reads as a lookup (diff/lookup-name.ts, the reading the diff lists a
 * new bare tool by). Only a person confirms it: a name is the server's word, as a hint would be, and
 * the gate calls nothing on it until the profile says so. A break behind an identical listing (a
 * lookup that returns less) shows only in such a call. `--confirm-lookups` is that word, given on the
 * command line: record calls them and writes their cases with `sideEffects: allowed`.
 */
function lookupsToPropose(contract: Contract, notCalled: readonly string[]): string[] {
  const names = contract.tools.map((t) => t.name);
  return contract.tools
    .filter((t) => notCalled.includes(t.name) && declaresNoHint(t) && readsAsLookup(t.name, t.description, names))
    .map((t) => t.name);
}

/** The tools the profile's consent does not let record call, for their side effects alone (cases/consent.ts). */
const uncalled = (contract: Contract, consent: SideConsent): string[] =>
  contract.tools.filter((t) => consentGap(t, contract, consent)?.kind === 'side-effects').map((t) => t.name);
