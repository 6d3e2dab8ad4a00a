import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type * as Refa from 'refa';

/**
 * refa (JS patterns as regular languages: witness/pattern-language.ts), loaded the first time two
 * patterns are compared. It is a third of what the packed gate would hold, and most runs compare
 * none: loaded at start, it cost every run about 15 ms of boot (bench/README.md). The packed gate
 * carries it beside itself (dist/packed/refa.cjs, scripts/pack.mjs); a checkout reads the package.
 */
const load = createRequire(import.meta.url);
let loaded: typeof Refa | undefined;

export function refa(): typeof Refa {
  if (!loaded) {
    const packed = fileURLToPath(new URL('./refa.cjs', import.meta.url));
    loaded = (existsSync(packed) ? load(packed) : load('refa')) as typeof Refa;
  }
  return loaded;
}
