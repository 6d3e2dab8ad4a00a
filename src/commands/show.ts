import { readReport } from '../report/read.js';
import { renderReport } from '../report/render.js';
import type { CommandIO, Format, Outcome } from './outcome.js';

/** `mcp-gate show REPORT`: renders a saved report from the file alone; no server is started. */
export function showCommand(file: string, format: Format, io: CommandIO): Outcome {
  const report = readReport(file, io.cwd);
  io.stdout(renderReport(report, format, { reportPath: null, colour: io.colour }));
  return { kind: 'ok' };
}
