import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

/**
 * Report files under contention and on a full disk: 16 processes writing 40 reports each with the
 * same timestamp keep all 640 (a name is taken by a hard link, which never overwrites), and a write
 * that fails (the file-size limit stands in for a full disk) leaves no temp file behind.
 */
const writer = (dir: string, count: number) => `
  import { writeReport } from ${JSON.stringify(join(ROOT, 'dist/report/write.js'))};
  import { readFileSync } from 'node:fs';
  const report = JSON.parse(readFileSync(${JSON.stringify(join(ROOT, 'docs/examples/support-ops-rollback.report.json'))}, 'utf8'));
  report.startedAt = '2026-11-23T10:00:00.000Z';
  for (let i = 0; i < ${count}; i++) { report.finishedAt = String(process.pid) + '-' + i; writeReport(${JSON.stringify(dir)}, report); }
`;

// Sixteen node processes at once: about 15 s on a quiet machine, four times that beside a CPU-bound load.
describe('report files are never lost or left half-written', { timeout: 240_000 }, () => {
  it('16 concurrent writers, 40 reports each, the same second: 640 reports, each whole, no temp file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-writers-'));
    await Promise.all(
      Array.from(
        { length: 16 },
        () =>
          new Promise<void>((resolve, reject) => {
            const child = spawn(process.execPath, ['--input-type=module', '-e', writer(dir, 40)], { stdio: ['ignore', 'ignore', 'pipe'] });
            let stderr = '';
            child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
            child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(stderr))));
          }),
      ),
    );
    const files = readdirSync(dir);
    expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(files).toHaveLength(640);
    const written = new Set(files.map((f) => (JSON.parse(readFileSync(join(dir, f), 'utf8')) as { finishedAt: string }).finishedAt));
    expect(written.size).toBe(640);
  });

  it('a write that fails (no room: the file-size limit) throws, and leaves neither the report nor its temp file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-full-'));
    const result = spawnSync('bash', ['-c', `ulimit -f 1; exec "${process.execPath}" --input-type=module -e "$SCRIPT"`], {
      env: { ...process.env, SCRIPT: writer(dir, 1) },
      encoding: 'utf8',
    });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/EFBIG|file too large/i);
    expect(readdirSync(dir)).toEqual([]);
  });
});
