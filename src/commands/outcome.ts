import type { Verdict } from '../decide/decide.js';
import type { Report } from '../report/types.js';

/** What a command ended with. Only the entry points (commands/dispatch.ts, action/main.ts) turn this into an exit code. */
export type Outcome =
  | { kind: 'verdict'; verdict: Verdict; reportWritten: boolean; report?: Report; reportPath?: string | null }
  | { kind: 'ok' }
  | { kind: 'undecided' };

export interface CommandIO {
  stdout: (text: string) => void;
  /** Progress and logs; silenced by --quiet. */
  log: (line: string) => void;
  /** Errors; never silenced. */
  error: (line: string) => void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  colour: boolean;
  /** True once the gate got SIGINT/SIGTERM: the servers are being ended, so nothing is decided. */
  interrupted: () => boolean;
}

export type Format = 'text' | 'json' | 'markdown' | 'junit' | 'sarif' | 'html';
export const FORMATS: readonly Format[] = ['text', 'json', 'markdown', 'junit', 'sarif', 'html'];

export type FailOn = 'rollback' | 'hold' | 'never';
export const FAIL_ONS: readonly FailOn[] = ['rollback', 'hold', 'never'];

/** Verdict -> exit code, under --fail-on. */
function verdictExitCode(verdict: Verdict, failOn: FailOn): number {
  if (verdict === 'Rollback') return failOn === 'never' ? 0 : 1;
  if (verdict === 'Hold') return failOn === 'hold' ? 2 : 0;
  return 0;
}

/** The exit code of an outcome. Only the entry points (commands/dispatch.ts, action/main.ts) set it on the process. */
export function exitCodeOf(outcome: Outcome, failOn: FailOn): number {
  if (outcome.kind === 'ok') return 0;
  if (outcome.kind === 'undecided') return 3;
  const code = verdictExitCode(outcome.verdict, failOn);
  // A passing verdict without its saved report is not a success: nothing is left to audit.
  return code === 0 && !outcome.reportWritten ? 3 : code;
}
