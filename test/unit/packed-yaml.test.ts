import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

// The packed CLI gives the yaml package a `process` without its debugging switches
// (scripts/yaml-process.mjs): it read process.env once a token, a tenth of its time on a large
// dataset (bench/README.md). With them set, the package would print every token it reads.
describe('the yaml package inside the packed CLI', () => {
  it('reads the config and the datasets without reading its debugging switches', async () => {
    const result = await runCli(['validate', '--quiet'], { env: { LOG_TOKENS: '1', LOG_STREAM: '1' } });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    // One line, the verdict: no `| token` lines from the parser, no document dumps from the composer.
    expect(result.stdout.split('\n').filter(Boolean)).toEqual([expect.stringMatching(/^gate\.config\.yaml: valid\./)]);
  });
});
