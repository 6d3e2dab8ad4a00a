import type { Change } from './types.js';

/** The instance path a change is at: `/inputSchema/properties/a/properties/b/maximum` is `a/b`. */
export function instancePath(c: Change): string[] {
  const at = c.subject.kind === 'tool' ? c.subject.at : [];
  const path: string[] = [];
  for (let i = 1; i < at.length; i++) {
    if (at[i] === 'properties' && at[i + 1] !== undefined) path.push(at[++i]!);
    else if (at[i] === 'items') path.push('0');
  }
  return path;
}
