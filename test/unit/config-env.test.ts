import { describe, expect, it } from 'vitest';
import { envOverrides } from '../../src/config/env.js';

describe('MCPGATE_ environment overrides', () => {
  const config = { profiles: { 'candidate-safe': {}, baseline: {} } };
  const paths = (env: Record<string, string>) => envOverrides(env, config).map((o) => [o.path.join('.'), o.value]);

  it('maps SCREAMING_SNAKE segments to camelCase keys, with typed values', () => {
    expect(paths({ MCPGATE_CANDIDATE: 'candidate-safe' })).toEqual([['candidate', 'candidate-safe']]);
    expect(paths({ MCPGATE_REPORTS__DIR: 'out/reports' })).toEqual([['reports.dir', 'out/reports']]);
    expect(paths({ MCPGATE_PROMOTION__MAX_BROKEN_CASES: '1' })).toEqual([['promotion.maxBrokenCases', 1]]);
  });

  it('maps keys under promotion.rules to kebab-case codes, and profile names to existing profiles', () => {
    expect(paths({ MCPGATE_PROMOTION__RULES__TOOL_REMOVED: 'hold' })).toEqual([['promotion.rules.tool-removed', 'hold']]);
    expect(paths({ MCPGATE_PROFILES__CANDIDATE_SAFE__ALLOW_SIDE_EFFECTS: 'false' })).toEqual([
      ['profiles.candidate-safe.allowSideEffects', false],
    ]);
  });

  it('leaves MCPGATE_ variables that are not config keys alone', () => {
    expect(paths({ MCPGATE_TOKEN: 'secret', MCPGATE_DEBUG: '1' })).toEqual([]);
  });
});
