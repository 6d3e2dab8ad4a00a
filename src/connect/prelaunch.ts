import type { LaunchSpec } from './environment.js';
import { endGroup, spawnGroup, type SpawnedGroup } from './process-group.js';
import { StreamTail } from './stderr-tail.js';

/**
 * Servers started ahead, while the gate is still loading its own modules (the SDK alone costs a
 * few hundred milliseconds): the two processes boot on the other cores meanwhile. Their output
 * is held until a transport adopts them; a launch nobody adopts is ended by `endUnadopted` (and,
 * like every group, at exit). Nothing here speaks MCP: a transport does, from the first byte.
 */
interface Held {
  group: SpawnedGroup;
  stdout: Buffer[];
  stdoutBytes: number;
  stderr: StreamTail;
  forward: { stdout: (chunk: Buffer) => void; stderr: (chunk: Buffer) => void } | null;
}

/** Bytes of stdout held for a server not adopted yet; past this it is ended, and spawned again later. */
const MAX_HELD_BYTES = 16 * 1024 * 1024;

const held = new Map<string, Held>();
const keyOf = (spec: LaunchSpec) => JSON.stringify([spec.command, spec.args, spec.cwd, Object.entries(spec.env).sort()]);

export function prelaunch(spec: LaunchSpec, stderrTailBytes: number): void {
  const key = keyOf(spec);
  if (held.has(key)) return;
  const group = spawnGroup(spec.command, spec.args, { cwd: spec.cwd, env: spec.env, gateEnv: spec.gateEnv });
  const entry: Held = { group, stdout: [], stdoutBytes: 0, stderr: new StreamTail(stderrTailBytes), forward: null };
  held.set(key, entry);
  group.child.stdout!.on('data', (chunk: Buffer) => {
    if (entry.forward) return entry.forward.stdout(chunk);
    entry.stdout.push(chunk);
    entry.stdoutBytes += chunk.length;
    if (entry.stdoutBytes > MAX_HELD_BYTES && held.get(key) === entry) {
      held.delete(key);
      void endGroup(group.child.pid!, 0);
    }
  });
  group.child.stderr!.on('data', (chunk: Buffer) => (entry.forward ? entry.forward.stderr(chunk) : entry.stderr.push(chunk)));
  group.spawned.catch(() => held.delete(key)); // a spawn error is reported by the transport's own spawn
}

/**
 * The held server for this spec, if any: its output so far goes to the handlers at once, then
 * everything after. Each launch is adopted at most once.
 */
export function adopt(spec: LaunchSpec, handlers: { stdout: (chunk: Buffer) => void; stderr: StreamTail }): SpawnedGroup | null {
  const key = keyOf(spec);
  const entry = held.get(key);
  if (!entry) return null;
  held.delete(key);
  const earlier = entry.stderr.text();
  handlers.stderr.dropped += entry.stderr.dropped;
  if (earlier) handlers.stderr.push(Buffer.from(earlier));
  for (const chunk of entry.stdout) handlers.stdout(chunk);
  entry.stdout = [];
  entry.forward = { stdout: handlers.stdout, stderr: (chunk) => handlers.stderr.push(chunk) };
  return entry.group;
}

/** Ends every held server that no session adopted (e.g. the run stopped on a bad dataset). */
export async function endUnadopted(graceMs: number): Promise<void> {
  const left = [...held.values()];
  held.clear();
  await Promise.all(left.map((e) => (e.group.child.pid ? endGroup(e.group.child.pid, graceMs, e.group.exited) : undefined)));
}
