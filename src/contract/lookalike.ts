/**
 * Tool names a model, a person or a server's dispatch could take for one another: `Wipe`, `wipe`,
 * `wi\u200bpe` and `wipe `. They are compared after Unicode compatibility normalisation (NFKC:
 * full-width and ligature forms), case folding, and with invisible characters and whitespace taken
 * out. Letters of other scripts that merely look alike (Cyrillic `а`) are not folded: a tool name
 * outside `[A-Za-z0-9_.-]` is already `tool-name-invalid` (docs/security.md).
 */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}\p{White_Space}]/gu;

/** The form look-alike names share. Upper then lower case folds `ß` and `SS` together, as case folding does. */
export const lookalikeKey = (name: string): string =>
  name.normalize('NFKC').replace(INVISIBLE, '').toUpperCase().toLowerCase().normalize('NFKC');

/** Groups of two or more distinct names that share a look-alike form, each sorted, in name order. */
export function lookalikeGroups(names: Iterable<string>): string[][] {
  const byKey = new Map<string, Set<string>>();
  for (const name of names) {
    const key = lookalikeKey(name);
    byKey.set(key, (byKey.get(key) ?? new Set()).add(name));
  }
  return [...byKey.values()]
    .filter((group) => group.size > 1)
    .map((group) => [...group].sort())
    .sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
}
