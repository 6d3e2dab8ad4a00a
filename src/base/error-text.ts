/** The message of anything thrown, for people. */
export const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * The stack of an internal error, for a bug report. V8 names the packed gate's frames with the one
 * name it is compiled under, wherever it sits (`mcp-gate/dist/packed/mcp-gate.cjs`, src/launch.ts:
 * its code cache carries no build folder); a frame of a cache recorded elsewhere names its own
 * folder. Both are named after the packed file where it is now, which the source map sits beside.
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

/** A variable's name as servers spell them: `ACME_TOKEN`, `GITHUB_PERSONAL_ACCESS_TOKEN`. */
const VARIABLE = /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/;
/** A line that complains of an unset variable: "ACME_TOKEN is not set", "Missing environment variable", Python's `KeyError: 'ACME_TOKEN'`. */
const UNSET_VARIABLE = [
  /\b(?:env(?:ironment)?)[ ._-]?var(?:iable)?s?\b.*\b(?:missing|required|not (?:set|defined|provided)|unset|undefined|empty|must be set)\b/i,
  /\b(?:missing|required|no|unset|undefined|set the)\b.*\benv(?:ironment)?[ ._-]?var(?:iable)?s?\b/i,
  /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b.{0,40}\b(?:is (?:not set|required|missing|undefined|not defined|empty)|must be (?:set|provided)|not set)\b/,
  /\bKeyError: '[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+'/,
];

/**
 * What a server's crash output most likely means, said as what to fix, or null. A server that will
 * not start mostly fails for one of three reasons, each of which its output names in words that are
 * easy to misread: npx's 404 for a package the registry does not have, a path or module that is not
 * there (ENOENT, MODULE_NOT_FOUND), and a variable it needs that is unset (a server sees only a few
 * of the gate's variables and its profile's `env`: docs/config.md).
 */
export function likelyCause(output: string): string | null {
  if (/\bnpm (?:error|ERR!) (?:code E404|404)\b/.test(output)) {
    const quoted = /npm (?:error|ERR!) 404\s.*?'([^'\s]+?)(?:@\*)?'/.exec(output)?.[1];
    const fetched = /404 Not Found - GET \S+\/([^/\s]+)/.exec(output)?.[1];
    const name = quoted ?? (fetched === undefined ? undefined : safeDecode(fetched));
    return `npm has no package ${name ? `"${name}"` : 'by that name'} (npm 404): check its name and version in the profile's args; if it is private, the server's environment lacks npm's token`;
  }
  const unset = output.split('\n').find((line) => UNSET_VARIABLE.some((pattern) => pattern.test(line)));
  if (unset !== undefined) {
    const name = VARIABLE.exec(unset)?.[0];
    return name
      ? `the server needs the variable ${name}, which it does not see: a server gets only PATH, HOME and a few others of the gate's environment, and its profile's env; add it there (env: { ${name}: "\${${name}}" })`
      : "the server needs an environment variable it does not see: a server gets only PATH, HOME and a few others of the gate's environment, and its profile's env; add the variable there";
  }
  const module = /Cannot find (module|package) '([^']+)'|No module named '([^']+)'/.exec(output);
  if (module) {
    const name = module[2] ?? module[3]!;
    return /^[./\\]|^[A-Za-z]:[\\/]/.test(name)
      ? `the file "${name}" does not exist (MODULE_NOT_FOUND): check the path in the profile's command and args (relative to its cwd), and that the server is built`
      : `the module "${name}" is not installed where the server runs (MODULE_NOT_FOUND): install the server's dependencies, or check the profile's cwd`;
  }
  // The server ran and could not open a file it reads as it starts (Node's "ENOENT: …, open '…'"):
  // inside an installed package, that release does not ship it, and no profile setting brings it back.
  const opened = /ENOENT: no such file or directory, (?:open|stat|lstat|scandir|access) '([^']+)'/.exec(output)?.[1];
  if (opened !== undefined)
    return /[\\/]node_modules[\\/]/.test(opened)
      ? `the server could not open "${opened}" (ENOENT), a file of its installed package: that release does not ship it, so it cannot start as installed`
      : `the server could not open "${opened}" (ENOENT), a file it reads as it starts: check the profile's cwd, and the paths its args and env give the server`;
  if (/\bENOENT\b|No such file or directory|command not found|can't open file/.test(output)) {
    const path =
      /ENOENT[^'\n]*'([^']+)'/.exec(output)?.[1] ??
      /can't open file '([^']+)'/.exec(output)?.[1] ??
      /(\S+): (?:No such file or directory|command not found)/.exec(output)?.[1];
    return `${path ? `"${path}"` : 'a file or command the server needs'} does not exist (ENOENT): check the paths in the profile's command, args and cwd`;
  }
  return null;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
