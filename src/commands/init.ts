import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { clientServers } from '../config/client-file.js';
import { loadConfig } from '../config/load.js';
import { InputError, type Problem } from '../base/problems.js';
import { packageFile } from '../base/package-root.js';
import { writeFileAtomic } from '../base/atomic-write.js';
import { type CommandIO, type Outcome } from './io.js';
import { recordInto } from './record.js';
import { contractSnapshot } from './snapshot.js';
import { configText, DATASET, defaultBranch, SNAPSHOT, type Source } from './init-config.js';

export interface InitFlags {
  config: string;
  from?: string;
  command?: string;
  /** The server's command line given after `--`. */
  argv: string[];
  package?: string;
  force: boolean;
}

/** The client configs init looks for in the project, in this order. */
const CLIENT_CONFIGS = ['.mcp.json', '.vscode/mcp.json', '.cursor/mcp.json'];
/** A published package at a pinned version, as npx names it: `pkg@1.2.3`, `@scope/pkg@2026.7.4`. */
const PINNED = /^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*@\d[\w.+-]*$/i;

const usageProblem = (path: string, message: string): Problem => ({ file: 'command line', line: null, path, message });

/**
 * `mcp-gate init`: a gate for the server of this project. Starts the server, writes its contract as
 * the baseline (or a profile of the released npm version), records a starter dataset from its
 * read-only tools, and writes a commented gate.config.yaml that ties them together. Everything is
 * checked before anything is written, and no file is overwritten without --force.
 */
export async function initCommand(flags: InitFlags, io: CommandIO): Promise<Outcome> {
  const configPath = resolve(io.cwd, flags.config);
  const dir = dirname(configPath);
  const source = await chooseSource(flags, dir, io);
  const pinned = flags.package ?? pinnedPackage(launchOf(source, dir));
  if (flags.package && !PINNED.test(flags.package))
    throw new InputError([usageProblem('--package', `must be NAME@VERSION, e.g. @acme/tickets-mcp@1.4.0, not "${flags.package}"`)]);
  refuseOverwrite([configPath, ...(pinned ? [] : [join(dir, SNAPSHOT)]), join(dir, DATASET)], flags.force, io);
  const baseline = pinned
    ? { command: 'npx', args: ['-y', pinned, ...argsAfterPackage(launchOf(source, dir))] }
    : { transport: 'snapshot', path: SNAPSHOT };
  // In a git clone, a server built from this repository can be gated against a git ref instead (docs/baselines.md).
  const gitRef = pinned ? null : defaultBranch(dir);
  const text = (datasets: boolean) =>
    configText({
      source,
      baseline,
      pinned: pinned ?? null,
      gitRef,
      datasets,
      schema: relative(dir, packageFile('schemas/gate.config.schema.json')),
    });
  const recorded = await writeBaselineAndDataset(text(false), { configPath, pinned }, io);
  writeFileAtomic(configPath, text(recorded));
  loadConfig(configPath, io.env, {}, io.cwd); // what was written reads back as a config
  io.stdout(nextSteps({ configPath, pinned, recorded, gitRef }, io));
  return { kind: 'ok' };
}

/** Everything is checked before anything is written: a file init would write that exists needs --force. */
function refuseOverwrite(files: string[], force: boolean, io: CommandIO): void {
  const existing = files.filter((f) => existsSync(f));
  if (existing.length && !force) {
    throw new InputError(
      existing.map((f) =>
        usageProblem(
          relative(io.cwd, f) || f,
          'exists; init never overwrites a file: pass --force to write it anew, or -c to write the config elsewhere',
        ),
      ),
    );
  }
}

/**
 * The snapshot (unless the baseline is a pinned package) and the recorded dataset, read through a
 * config without its dataset first: it names the profiles that the snapshot and record read.
 * Whether any case was recorded.
 */
async function writeBaselineAndDataset(
  draftText: string,
  { configPath, pinned }: { configPath: string; pinned: string | undefined },
  io: CommandIO,
): Promise<boolean> {
  const dir = dirname(configPath);
  const draft = join(dir, `.mcp-gate-init.${process.pid}.yaml`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(draft, draftText);
  try {
    const config = asConfigFile(() => loadConfig(draft, io.env, {}, io.cwd), relative(io.cwd, draft), relative(io.cwd, configPath));
    const candidate = config.profiles.candidate!;
    if (!pinned) {
      io.log('mcp-gate: init: starting the server to read its contract');
      const { text: snapshot, tools } = await contractSnapshot(candidate, config, io);
      writeFileAtomic(join(dir, SNAPSHOT), snapshot);
      io.log(`mcp-gate: init: wrote ${relative(io.cwd, join(dir, SNAPSHOT))}: ${tools} tool(s), the baseline contract`);
    }
    const recordFrom = pinned ? 'baseline' : 'candidate';
    return await recordInto(
      { config, name: recordFrom, profile: config.profiles[recordFrom]!, givenArgs: {}, target: join(dir, DATASET), force: true },
      io,
    );
  } finally {
    rmSync(draft, { force: true });
  }
}

/** What init wrote, and what to run next. */
function nextSteps(
  { configPath, pinned, recorded, gitRef }: { configPath: string; pinned: string | undefined; recorded: boolean; gitRef: string | null },
  io: CommandIO,
): string {
  const dir = dirname(configPath);
  const shown = (f: string) => relative(io.cwd, join(dir, f)) || f;
  const configArg = relative(io.cwd, configPath) === 'gate.config.yaml' ? '' : ` -c ${relative(io.cwd, configPath)}`;
  return [
    `mcp-gate init: wrote ${[relative(io.cwd, configPath), ...(pinned ? [] : [shown(SNAPSHOT)]), ...(recorded ? [shown(DATASET)] : [])].join(', ')}`,
    '',
    'Next:',
    `  npx mcp-gate run${configArg}        gate the candidate against the baseline (exit 0 Promote, 1 Rollback, 2 Hold)`,
    `  npx mcp-gate record${configArg}     add cases for tools added later; edit ${shown(DATASET)} freely`,
    ...(gitRef
      ? [
          `  This is a git repository: the profile \`released\` in ${relative(io.cwd, configPath)} (commented out) gates against ${gitRef},`,
          '  built in a worktree and cached, instead of the snapshot: set its build and `baseline: released` (docs/baselines.md).',
        ]
      : []),
    '',
  ].join('\n');
}

/** Problems found in the draft are told as problems of the config it becomes. */
function asConfigFile<T>(load: () => T, draft: string, config: string): T {
  try {
    return load();
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    throw new InputError(error.problems.map((p) => (p.file === draft ? { ...p, file: config } : p)));
  }
}

type Launch = { command: string; args: string[] } | null;

/** The command line a source starts, when it is one: given, or read from the client config entry. */
function launchOf(source: Source, dir: string): Launch {
  if ('command' in source) return source;
  const hash = source.from.lastIndexOf('#');
  const entry = clientServers(join(dir, source.from.slice(0, hash)))[source.from.slice(hash + 1)];
  if (entry === null || typeof entry !== 'object') return null;
  const { command, args } = entry as { command?: unknown; args?: unknown };
  if (typeof command !== 'string') return null;
  return { command, args: Array.isArray(args) ? args.filter((a): a is string => typeof a === 'string') : [] };
}

/** A server started as `npx [-y] pkg@1.2.3 ...`: a published version, which is then also the baseline. */
function pinnedPackage(launch: Launch): string | undefined {
  if (!launch || !/(^|\/)npx$/.test(launch.command)) return undefined;
  return launch.args.find((a) => PINNED.test(a));
}

/** The server's own arguments after the package name, which the baseline's npx line keeps. */
function argsAfterPackage(launch: Launch): string[] {
  const at = launch ? launch.args.findIndex((a) => PINNED.test(a)) : -1;
  return at === -1 ? [] : launch!.args.slice(at + 1);
}

/** The server: --from, --command or the words after `--`, else the only server of the project's client configs (or the one a person picks). */
async function chooseSource(flags: InitFlags, dir: string, io: CommandIO): Promise<Source> {
  const given = [flags.from !== undefined, flags.command !== undefined, flags.argv.length > 0].filter(Boolean).length;
  if (given > 1)
    throw new InputError([
      usageProblem('--from, --command, --', 'name the server one way: --from FILE#NAME, --command "CMD ARGS", or -- CMD ARGS...'),
    ]);
  if (flags.from !== undefined) {
    // Given on the command line, the file is relative to where init runs; in the config, to the config's folder.
    const hash = flags.from.lastIndexOf('#');
    if (hash <= 0) return { from: flags.from }; // the config loader says what FILE#SERVER must be
    return { from: `${relative(dir, resolve(io.cwd, flags.from.slice(0, hash))) || '.'}${flags.from.slice(hash)}` };
  }
  const words = flags.command !== undefined ? flags.command.trim().split(/\s+/).filter(Boolean) : flags.argv;
  if (words.length) return { command: words[0]!, args: words.slice(1) };
  const found = CLIENT_CONFIGS.flatMap((file) => serversIn(join(dir, file)).map((name) => `${file}#${name}`));
  if (found.length === 1) {
    io.log(`mcp-gate: init: using ${found[0]}, the one server in the project's MCP client configs`);
    return { from: found[0]! };
  }
  if (found.length > 1 && process.stdin.isTTY && !io.env.CI) return { from: await pick(found) };
  throw new InputError([
    usageProblem(
      '--from',
      found.length
        ? `is needed: the project's client configs have ${found.length} servers; pick one with ${found.map((f) => `--from ${f}`).join(', ')}`
        : `is needed: no server given and none found in ${CLIENT_CONFIGS.join(', ')}; pass --from FILE#NAME, --command "node dist/server.js", or -- CMD ARGS...`,
    ),
  ]);
}

const serversIn = (path: string): string[] => Object.keys(clientServers(path)).sort();

async function pick(choices: string[]): Promise<string> {
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    process.stderr.write(`Servers in this project's MCP client configs:\n${choices.map((c, i) => `  ${i + 1}. ${c}`).join('\n')}\n`);
    for (;;) {
      const answer = Number((await prompt.question('Gate which one? ')).trim());
      if (Number.isInteger(answer) && answer >= 1 && answer <= choices.length) return choices[answer - 1]!;
    }
  } finally {
    prompt.close();
  }
}
