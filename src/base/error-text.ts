/** The message of anything thrown, for people. */
export const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * The stack of an internal error, for a bug report. The packed gate runs through a V8 code cache
 * recorded on the machine that built it (src/launch.ts), and V8 names the frames of cached code
 * with the path they were recorded at: those frames are named after the packed file where it is
 * now, so no build machine's path is printed.
 */
export function stackOf(error: Error, packedFile: string): string {
  const stack = error.stack ?? error.message;
  return stack.replace(/(?:[A-Za-z]:)?[^\s()]*[\\/]dist[\\/]packed[\\/]mcp-gate\.cjs/g, packedFile);
}

/** A line that states what went wrong: `Error: ...`, `TypeError [ERR_X]: ...`, Python's last line, `error: ...` of Rust or Go. */
const REASON_LINE =
  /^\s*(?:Uncaught\s+)?[\w.$]*(?:Error|Exception)(?:\s*\[\w+\])?:|Cannot find (?:package|module)|^\s*(?:error|fatal|panic)(?:\[\w+\])?:/i;
/** A line that only mentions an error (a code in a source excerpt, a shell's complaint): used when no line states one. */
const MENTION_LINE = /\b\w*(?:Error|Exception)\b|\bERR_[A-Z_]+\b|command not found|No such file or directory/;

/**
 * The first line of a crash's output that says what went wrong ("Error [ERR_MODULE_NOT_FOUND]:
 * Cannot find package 'pkce-challenge'"), or null. The last lines of a Node crash are its stack,
 * so a tail alone cuts off the reason.
 */
export function firstErrorLine(output: string): string | null {
  const lines = output.split('\n');
  const line = lines.find((l) => REASON_LINE.test(l)) ?? lines.find((l) => MENTION_LINE.test(l));
  return line === undefined ? null : line.trim();
}

/**
 * The end of a crash's output as people read it: its first error line (when the last `count` lines
 * do not hold it), then its last `count` lines.
 */
export function crashExcerpt(output: string, count: number): string[] {
  const lines = output.trimEnd().split('\n');
  const last = lines.slice(-count);
  const first = firstErrorLine(output);
  if (first === null || last.some((line) => line.trim() === first)) return last;
  return [first, ...(lines.length > count + 1 ? ['...'] : []), ...last];
}
