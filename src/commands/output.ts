import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import type { CommandIO } from './outcome.js';

/**
 * Sends a rendered page to stdout, or with `-o FILE` writes it atomically (temp file, then rename),
 * creating the folder, so a workflow step can upload the file right after.
 */
export function emit(text: string, output: string | undefined, io: CommandIO): void {
  if (!output || output === '-') {
    io.stdout(text);
    return;
  }
  const target = resolve(io.cwd, output);
  mkdirSync(dirname(target), { recursive: true });
  const temp = `${target}.${process.pid}.tmp`;
  writeFileSync(temp, text);
  renameSync(temp, target);
  io.log(`mcp-gate: wrote ${relative(io.cwd, target) || target}`);
}
