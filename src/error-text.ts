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
