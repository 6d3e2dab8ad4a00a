import type { Probe } from './types.js';

/** A probe not made yet: skipped, with nothing measured. Each probe starts from this. */
export const unprobed = (tool: string, kind?: Probe['kind']): Probe => ({
  tool,
  ...(kind && { kind }),
  status: 'skipped',
  reason: null,
  isError: null,
  durationMs: null,
  resultBytes: null,
  textBytes: null,
});
