import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');
export const CLI = join(ROOT, 'bin/mcp-gate.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs the built CLI as a real process, the way users and CI do. */
export function runCli(
  args: string[],
  options: { cwd?: string; env?: Record<string, string | undefined>; timeoutMs?: number } = {},
): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  for (const key of Object.keys(env)) if (key.startsWith('MCPGATE_')) delete env[key];
  Object.assign(env, options.env);
  const started = Date.now();
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd ?? ROOT, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`mcp-gate ${args.join(' ')} did not finish in ${options.timeoutMs ?? 30_000} ms\n${stderr}`));
    }, options.timeoutMs ?? 30_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

/**
 * A scratch project (config and datasets copied) so tests can edit files and write reports freely.
 * The servers stay the built example in the repo; each gets a `--tag=<dir>` argument (ignored by
 * the server) so a test can find exactly its own processes.
 */
export function scratchProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-test-'));
  const server = join(ROOT, 'examples/support-ops/dist/server.js');
  const config = readFileSync(join(ROOT, 'gate.config.yaml'), 'utf8').replace(
    /args: \[examples\/support-ops\/dist\/server\.js, ([\w-]+)\]/g,
    (_, profile: string) => `args: [${server}, ${profile}, --tag=${dir}]`,
  );
  writeFileSync(join(dir, 'gate.config.yaml'), config);
  cpSync(join(ROOT, 'datasets'), join(dir, 'datasets'), { recursive: true });
  return dir;
}

/**
 * The scratch project's baseline as a committed snapshot (`contracts/baseline.json`, written by
 * `mcp-gate snapshot`), so what a change is about has a file and a line.
 */
export async function snapshotBaseline(dir: string): Promise<void> {
  const config = readFileSync(join(dir, 'gate.config.yaml'), 'utf8');
  writeFileSync(
    join(dir, 'gate.config.yaml'),
    `${config.replace(/^baseline: .*$/m, 'baseline: committed')}\n`.replace(
      /^profiles:$/m,
      'profiles:\n  committed: { transport: snapshot, path: contracts/baseline.json }',
    ),
  );
  const snapshot = await runCli(['snapshot', '--profile', 'baseline', '-o', 'contracts/baseline.json'], { cwd: dir });
  if (snapshot.code !== 0) throw new Error(`snapshot failed: ${snapshot.stderr}`);
}
