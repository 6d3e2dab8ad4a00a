import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { GateConfig, Isolation, Profile } from '../config/types.js';
import type { Side } from '../findings/types.js';

/**
 * The folders one side of one run has to itself. A baseline and a candidate are often the same
 * server twice, started at once: sharing a TMPDIR (or a HOME) they race for the same lock and
 * cache files, and one of them fails for a reason that is not in its code. So each side gets a
 * fresh TMPDIR by default, and a fresh HOME when its profile asks (`home: isolated`, or the
 * entries to link or copy in). HOME stays shared by default: a fresh one has no npx cache,
 * `.npmrc` or kubeconfig. Everything is under one folder, removed when the run ends.
 */
export class SideDirs {
  readonly tmp: string | null;
  readonly home: string | null;
  /** Entries the profile asked to link or copy into HOME that this machine does not have. */
  readonly missing: string[] = [];

  private constructor(
    private readonly root: string,
    private readonly isolation: Isolation,
    private readonly realHome: string,
  ) {
    this.tmp = isolation.tmpdir === 'own' ? join(root, 'tmp') : null;
    this.home = isolation.home.isolated ? join(root, 'home') : null;
    this.fill();
  }

  /** Null when the profile keeps the gate's TMPDIR and HOME: nothing to make. `realHome` is where home entries are linked or copied from. */
  static create(side: Side, isolation: Isolation, realHome: string): SideDirs | null {
    if (isolation.tmpdir === 'shared' && !isolation.home.isolated) return null;
    return new SideDirs(mkdtempSync(join(tmpdir(), `mcp-gate-${side}-`)), isolation, realHome);
  }

  /** What the server's environment gets: TMPDIR (with TMP and TEMP, read on other systems) and HOME. */
  env(): Record<string, string> {
    return {
      ...(this.tmp && { TMPDIR: this.tmp, TMP: this.tmp, TEMP: this.tmp }),
      ...(this.home && { HOME: this.home, USERPROFILE: this.home }),
    };
  }

  /** Empties the folders for a second start, at the same paths: nothing the failed start left behind is seen. */
  renew(): void {
    rmSync(this.root, { recursive: true, force: true });
    this.missing.length = 0;
    this.fill();
  }

  /** Removes everything; links into the real HOME are removed, never followed. */
  remove(): void {
    rmSync(this.root, { recursive: true, force: true });
  }

  private fill(): void {
    mkdirSync(this.root, { recursive: true });
    if (this.tmp) mkdirSync(this.tmp, { recursive: true });
    if (!this.home || !this.isolation.home.isolated) return;
    mkdirSync(this.home, { recursive: true });
    const { link, copy } = this.isolation.home;
    for (const [entries, place] of [
      [link, (from: string, to: string) => symlinkSync(from, to)],
      [copy, (from: string, to: string) => cpSync(from, to, { recursive: true, verbatimSymlinks: true })],
    ] as const) {
      for (const entry of entries) {
        const from = join(this.realHome, entry);
        if (!existsSync(from)) {
          this.missing.push(entry);
          continue;
        }
        const to = join(this.home, entry);
        mkdirSync(dirname(to), { recursive: true });
        place(from, to);
      }
    }
  }
}

/** Each live side's own folders (connect/side-dirs.ts), as its profile asks; home entries come from the gate's HOME in `env`. */
export function makeSideDirs(config: GateConfig, env: NodeJS.ProcessEnv): Record<Side, SideDirs | null> {
  return {
    baseline: sideDirsOf('baseline', config.profiles[config.baseline], env),
    candidate: sideDirsOf('candidate', config.profiles[config.candidate], env),
  };
}

/**
 * One live profile's own folders, as its profile asks: null for a snapshot, or a profile that keeps
 * the gate's TMPDIR and HOME. `record` makes them for each server it starts, as `run` does, so a
 * server records in the environment it is gated in.
 */
export function sideDirsOf(side: Side, profile: Profile | undefined, env: NodeJS.ProcessEnv): SideDirs | null {
  if (!profile || profile.transport === 'snapshot') return null;
  const isolation = profile.transport === 'stdio' ? profile.isolation : profile.launch?.isolation;
  return isolation ? SideDirs.create(side, isolation, env.HOME ?? homedir()) : null;
}
