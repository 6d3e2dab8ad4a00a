import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

/**
 * The package as a user gets it: `npm pack` of this repository (what the registry would ship: the launchers, the
 * packed gate, its validators and the schemas), installed into a fresh project, and `npx mcp-gate run` there
 * against the example's servers. From the npm cache when it can, so it costs seconds.
 */
describe('installable as a package', { timeout: 180_000 }, () => {
  it('npm pack, npm install the tarball into a new project, npx mcp-gate run: Rollback, exit 1, the schema file in place', () => {
    const work = mkdtempSync(join(tmpdir(), 'mcp-gate-install-'));
    const npm = (args: string[], cwd: string) =>
      execFileSync('npm', args, {
        cwd,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' },
      });
    npm(['pack', '--ignore-scripts', '--pack-destination', work], ROOT);
    const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'))!;
    const project = join(work, 'project');
    execFileSync('mkdir', ['-p', project]);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'my-server', version: '1.0.0', private: true }));
    npm(['install', '--prefer-offline', '--no-save', join(work, tarball)], project);
    expect(existsSync(join(project, 'node_modules/mcp-gate/schemas/gate.config.schema.json'))).toBe(true);
    // The packed gate holds every package it loads: the package brings nothing else along.
    expect(readdirSync(join(project, 'node_modules')).filter((name) => !name.startsWith('.'))).toEqual(['mcp-gate']);
    const server = join(ROOT, 'examples/support-ops/dist/server.js');
    writeFileSync(
      join(project, 'gate.config.yaml'),
      [
        '# yaml-language-server: $schema=./node_modules/mcp-gate/schemas/gate.config.schema.json',
        'version: 1',
        'profiles:',
        `  prod: { command: node, args: [${JSON.stringify(server)}, baseline] }`,
        `  pr: { command: node, args: [${JSON.stringify(server)}, candidate] }`,
        'baseline: prod',
        'candidate: pr',
        '',
      ].join('\n'),
    );
    const run = spawnSync('npx', ['--no-install', 'mcp-gate', 'run'], { cwd: project, encoding: 'utf8' });
    const [code, stdout] = [run.status, run.stdout];
    expect(code).toBe(1);
    expect(stdout).toContain('Decision: Rollback');
    expect(readdirSync(join(project, 'reports')).filter((f) => f.endsWith('.json'))).toHaveLength(1);
  });
});
