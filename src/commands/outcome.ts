import type { Verdict } from '../decide/decide.js';
import type { Report } from '../report/types.js';

/** What a command ended with. Only cli.ts turns this into an exit code. */
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

export type Format = 'text' | 'json' | 'markdown' | 'junit' | 'sarif';
export const FORMATS: readonly Format[] = ['text', 'json', 'markdown', 'junit', 'sarif'];
