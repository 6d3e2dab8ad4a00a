import type { GateConfig } from '../config/types.js';
import type { Containment } from '../connect/containment.js';
import type { RunEnvironment } from './types.js';

/**
 * The machine the run had, as the report says it (`environment`): the containment its servers got,
 * and the pair's profiles that ran from a git tree it could not keep read-only (each from a copy of
 * its own: connect/git-baseline.ts, `placeTrees`).
 */
export function runEnvironment(config: GateConfig, containment: Containment | null): RunEnvironment {
  const built = [...new Set([config.baseline, config.candidate])].filter((name) => {
    const profile = config.profiles[name];
    return profile && profile.transport !== 'snapshot' && profile.git?.tree;
  });
  const unprotected = containment?.baselineTrees === 'copied' ? built : [];
  return { containment, ...(unprotected.length && { unprotectedTrees: unprotected }) };
}
