import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { BuildOptions } from 'esbuild';
import { packageFile } from '../../base/package-root.js';

/**
 * The page script, built from client/index.ts by `npm run build` (scripts/pack.mjs).
 * @public scripts/pack.mjs reads it from dist/.
 */
export const CLIENT_SCRIPT = 'dist/generated/html-client.js';

/**
 * How the client modules become one page script: shared by the build and by runs from src/.
 * @public scripts/pack.mjs reads it from dist/.
 */
export const CLIENT_BUILD: BuildOptions & { write: false } = {
  entryPoints: [packageFile('src/report/html/client/index.ts')],
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: 'es2020',
  minifyWhitespace: true,
  minifySyntax: true, // identifiers keep their names: an error in the browser names its function
  write: false,
  logLevel: 'silent',
};

let script: string | null = null;

/**
 * The page's script. From a build, the bundle the build wrote; from src/ (the tests, which run the
 * TypeScript), the client modules bundled now with esbuild (a dev dependency), so an edit to them
 * shows up without a rebuild.
 */
export function clientScript(): string {
  script ??= import.meta.url.endsWith('.ts') ? bundleNow() : readFileSync(packageFile(CLIENT_SCRIPT), 'utf8');
  return script;
}

function bundleNow(): string {
  // Through createRequire so that bundling the gate does not pull esbuild in.
  const esbuild = createRequire(import.meta.url)('esbuild') as typeof import('esbuild');
  return esbuild.buildSync(CLIENT_BUILD).outputFiles[0]!.text;
}
