import type { Verdict } from '../decide/decide.js';

/** What a command ended with. Only cli.ts turns this into an exit code. */
export type Outcome =
  | { kind: 'verdict'; verdict: Verdict; reportWritten: boolean }
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
}

export type Format = 'text' | 'json' | 'markdown' | 'html';
export const FORMATS: readonly Format[] = ['text', 'json', 'markdown', 'html'];
