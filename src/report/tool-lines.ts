/**
 * A tool definition as the report writes it: one line of JSON (report/json-pieces.ts). At 1,000 tools a
 * side the definitions are most of the report, so each is serialised once per run: trimReport
 * measures the line that the writer then takes (and forgets, so that lines do not outlive the
 * write). Keyed by the definition itself, which nothing changes once its contract is built (its
 * hash was taken from it).
 */
const lines = new WeakMap<object, string>();

export function toolLine(tool: object): string {
  let line = lines.get(tool);
  if (line === undefined) {
    line = JSON.stringify(tool);
    lines.set(tool, line);
  }
  return line;
}

/** The line, made now or taken from the measure, and no longer kept. */
export function takeToolLine(tool: object): string {
  const line = lines.get(tool) ?? JSON.stringify(tool);
  lines.delete(tool);
  return line;
}
