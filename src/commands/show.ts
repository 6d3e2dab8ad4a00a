import { readReport } from '../report/read.js';
import { render, type Format } from '../report/formats.js';
import { emit, type CommandIO, type Outcome } from './io.js';

/** `mcp-gate show REPORT [--format F] [-o FILE]`: renders a saved report from the file alone; no server is started. */
export function showCommand(file: string, format: Format, io: CommandIO, output?: string): Outcome {
  const report = readReport(file, io.cwd);
  emit(render('report', report, format, { reportPath: null, colour: io.colour && !output }), output, io);
  return { kind: 'ok' };
}
