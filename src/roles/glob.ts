/**
 * Allowlist entries: an exact tool name, or a glob where `*` matches any run of characters
 * (dots included, so `Tickets.*` covers `Tickets.Search`) and `?` matches one character.
 */
export function toolMatcher(patterns: string[]): (tool: string) => boolean {
  const regexes = patterns.map((p) => new RegExp(`^${p.split('').map(globChar).join('')}$`));
  return (tool) => regexes.some((r) => r.test(tool));
}

const globChar = (c: string): string => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&'));
