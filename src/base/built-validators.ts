import type { ValidateFunction } from 'ajv';

/**
 * The validators `npm run build` compiled to dist/generated, bundled into the packed CLI: the packer
 * (scripts/pack.mjs) replaces this module with one that requires each file, so they load
 * from the packed file's code cache rather than compiling on every run (the config's own took
 * about 12 ms, before the servers started). Null here, where the sources run unpacked.
 */
export const BUILT_VALIDATORS: Record<string, () => ValidateFunction> | null = null;
