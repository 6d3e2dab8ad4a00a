/**
 * `${VAR}` and `${env:VAR}` references in config values: read from the environment when a server is
 * started or reached. The `env:` form is the one VS Code and Cursor configs use; both mean the same.
 */
const REFERENCE = /\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The variable names a value refers to, in order, without duplicates. */
export function referencedVariables(value: string): string[] {
  return [...new Set([...value.matchAll(REFERENCE)].map((m) => m[1]!))];
}

/** Expands `${VAR}` from `source`. Unset variables are reported, not silently emptied. */
export function expandReferences(value: string, source: NodeJS.ProcessEnv): { value: string; missing: string[] } {
  const missing: string[] = [];
  const expanded = value.replace(REFERENCE, (_, name: string) => {
    const found = source[name];
    if (found === undefined) missing.push(name);
    return found ?? '';
  });
  return { value: expanded, missing };
}

/** `value` with every reference stood in for by `placeholder`: for checking a shape (a url) before the values are known. */
export const withPlaceholders = (value: string, placeholder: string): string => value.replace(REFERENCE, placeholder);
