import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { loadDatasets } from '../cases/load.js';
import { formatProblem, InputError, type Problem } from '../base/problems.js';
import type { Profile } from '../config/types.js';
import { readConfig, type CommandIO, type Outcome } from './io.js';

/** `mcp-gate validate`: the config and every dataset, checked without starting a server. */
export function validateCommand(flags: { config: string }, io: CommandIO): Outcome {
  const config = readConfig(flags.config, io);
  const problems: Problem[] = [];
  // Every profile once: the top-level ones, then those a bundle's server declares for itself.
  const scoped: { at: string; profile: Profile }[] = Object.values(config.profiles).map((profile) => ({
    at: `profiles.${profile.name}`,
    profile,
  }));
  for (const server of config.bundle?.servers ?? []) {
    for (const profile of Object.values(server.config.profiles)) {
      if (config.profiles[profile.name] !== profile) scoped.push({ at: `servers.${server.name}.profiles.${profile.name}`, profile });
    }
  }
  for (const { at, profile } of scoped) {
    if (profile.transport === 'snapshot' && !profile.git && !existsSync(profile.path)) {
      problems.push({
        file: relative(io.cwd, config.file ?? flags.config),
        line: null,
        path: `${at}.path`,
        message: `snapshot file ${relative(io.cwd, profile.path)} does not exist; write it with \`mcp-gate snapshot --profile <live profile> -o ${relative(io.cwd, profile.path)}\``,
      });
    }
  }
  // Not a problem of the file: the variable may well be set where the gate runs (a CI secret).
  // Every reference in command, args, cwd, env, url and headers, `from:` ones at their client config's line.
  const unset = new Map<string, Problem>();
  for (const { profile } of scoped) {
    if (profile.transport === 'snapshot') continue;
    for (const problem of profile.unresolved) unset.set(formatProblem(problem), problem);
  }
  for (const line of unset.keys()) io.log(`mcp-gate: note: ${line}; \`run\` stops with exit 3 unless it is set`);
  let datasets: ReturnType<typeof loadDatasets> = [];
  // A bundle's servers each load their own datasets (case ids are unique per server, not across the bundle).
  for (const pair of config.bundle ? config.bundle.servers.map((s) => s.config) : [config]) {
    try {
      datasets.push(...loadDatasets(pair.datasets, io.cwd));
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      problems.push(
        ...error.problems.filter((p) => !problems.some((q) => q.file === p.file && q.path === p.path && q.message === p.message)),
      );
    }
  }
  if (problems.length) throw new InputError(problems);
  datasets = [...new Map(datasets.map((d) => [d.file, d])).values()];
  for (const note of datasets.flatMap((d) => d.notes ?? [])) io.log(`mcp-gate: note: ${formatProblem(note)}`);
  const cases = datasets.reduce((n, d) => n + d.cases.length, 0);
  const pairs = config.bundle
    ? `${config.bundle.servers.length} servers (${config.bundle.servers.map((s) => s.name).join(', ')})`
    : `${Object.keys(config.profiles).length} profiles (baseline "${config.baseline}", candidate "${config.candidate}")`;
  io.stdout(`${relative(io.cwd, config.file ?? flags.config)}: valid. ${pairs}, ${datasets.length} datasets, ${cases} cases.\n`);
  return { kind: 'ok' };
}
