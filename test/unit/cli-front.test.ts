import { describe, expect, it } from 'vitest';
import { wantsColour } from '../../src/cli.js';
import { stackOf } from '../../src/base/error-text.js';

describe('colour on stdout', () => {
  it.each([
    [{}, true, true],
    [{}, false, false],
    [{ NO_COLOR: '1' }, true, false],
    [{ TERM: 'dumb' }, true, false],
    [{ FORCE_COLOR: '1' }, false, true],
    [{ FORCE_COLOR: '' }, false, true],
    [{ FORCE_COLOR: '1', NO_COLOR: '1' }, false, true],
    [{ FORCE_COLOR: '0' }, true, false],
    [{ FORCE_COLOR: 'false' }, true, false],
  ])('%j on a %s terminal: %s', (env, tty, colour) => {
    expect(wantsColour(env, tty)).toBe(colour);
  });
});

describe('an internal error names the packed file where it is, not where it was built', () => {
  it('maps every frame of the packed file, on POSIX and Windows paths, and leaves the others', () => {
    const error = new Error('boom');
    error.stack = [
      'Error: boom',
      '    at compileValidator (/home/runner/work/mcp-gate/mcp-gate/dist/packed/mcp-gate.cjs:221:72995)',
      '    at D:\\a\\mcp-gate\\dist\\packed\\mcp-gate.cjs:5:1',
      '    at launch (file:///srv/app/bin/launch.js:28:3)',
    ].join('\n');
    const stack = stackOf(error, '/opt/tools/mcp-gate/dist/packed/mcp-gate.cjs');
    expect(stack).not.toContain('runner');
    expect(stack).not.toContain('D:\\a');
    expect(stack.match(/\/opt\/tools\/mcp-gate\/dist\/packed\/mcp-gate\.cjs/g)).toHaveLength(2);
    expect(stack).toContain('file:///srv/app/bin/launch.js:28:3');
  });
});
