import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './cli.js';

/** A tool as a recorded release listed it. */
export type RawTool = Record<string, unknown> & { name: string };

/**
 * Each pair of consecutive recorded versions of a package (test/fixtures/releases), both ways:
 * [older, newer] and [newer, older], as the tools their servers listed.
 */
export function consecutiveReleases(): [before: RawTool[], after: RawTool[]][] {
  const dir = join(ROOT, 'test/fixtures/releases');
  const byPackage = new Map<string, string[]>();
  for (const f of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const pkg = f.slice(0, f.lastIndexOf('@'));
    byPackage.set(pkg, [...(byPackage.get(pkg) ?? []), f]);
  }
  const tools = (f: string) => (JSON.parse(readFileSync(join(dir, f), 'utf8')) as { tools: RawTool[] }).tools;
  const out: [RawTool[], RawTool[]][] = [];
  for (const versions of byPackage.values())
    for (let i = 1; i < versions.length; i++) {
      const [older, newer] = [tools(versions[i - 1]!), tools(versions[i]!)];
      out.push([older, newer], [newer, older]);
    }
  return out;
}
