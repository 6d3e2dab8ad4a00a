import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package's own folder: the nearest one above this module that holds a package.json. Found by
 * looking, because this module runs from src/ (tests), dist/ (tsc) and dist/packed/ (the packed CLI).
 */
function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`mcp-gate: no package.json above ${from}`);
  }
}

const PACKAGE_ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));

/** A file of the package, such as `schemas/report.schema.json`. */
export const packageFile = (path: string): string => join(PACKAGE_ROOT, path);
