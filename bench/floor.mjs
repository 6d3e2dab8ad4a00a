#!/usr/bin/env node
// The floor: the least any gate must do, with no SDK and no checks. Spawns both servers in parallel,
// sends initialize and notifications/initialized, follows tools/list to the end, makes the probe
// calls (cases in flight up to the same concurrency as the gate, a case's probes one after the
// other), then ends each session: stdin closed, SIGTERM, wait for the exit.
// Usage: node bench/floor.mjs PLAN.json  (the plan is written by bench/scenarios.mjs)
// Prints one JSON line: per side, the tools listed, pages read and probes called.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

const plan = JSON.parse(readFileSync(process.argv[2], 'utf8'));

/** Newline-delimited JSON-RPC over a child's stdio: requests by id, server requests refused. */
function connect(server) {
  const child = spawn(server.command, server.args, { cwd: server.cwd, env: { ...process.env, ...server.env }, stdio: ['pipe', 'pipe', 'ignore'] });
  const waiting = new Map();
  let nextId = 1;
  let buffered = '';
  const send = (message) => child.stdin.write(`${JSON.stringify(message)}\n`);
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    buffered += chunk;
    let newline;
    while ((newline = buffered.indexOf('\n')) !== -1) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      let message;
      try { message = JSON.parse(line); } catch { continue; }
      if (message.method !== undefined) {
        if (message.id !== undefined) send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'not supported' } });
        continue;
      }
      const settle = waiting.get(message.id);
      waiting.delete(message.id);
      settle?.(message);
    }
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.stdin.on('error', () => undefined);
  const request = (method, params) => new Promise((resolve, reject) => {
    const id = nextId++;
    waiting.set(id, (message) => (message.error ? reject(new Error(`${method}: ${message.error.message}`)) : resolve(message.result)));
    send({ jsonrpc: '2.0', id, method, params });
  });
  const end = () => {
    child.stdin.end();
    child.kill('SIGTERM');
    return exited;
  };
  return { request, notify: (method) => send({ jsonrpc: '2.0', method }), end };
}

async function inFlight(items, limit, work) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

async function side(server) {
  const session = connect(server);
  try {
    await session.request('initialize', { protocolVersion: plan.protocolVersion, capabilities: {}, clientInfo: { name: 'floor', version: '0' } });
    session.notify('notifications/initialized');
    const tools = new Map();
    let pages = 0;
    let cursor;
    do {
      const page = await session.request('tools/list', cursor === undefined ? {} : { cursor });
      pages += 1;
      for (const tool of page.tools) tools.set(tool.name, tool);
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    let probes = 0;
    // The gate's rule: a tool is probed when it is listed and read-only, or side effects are allowed.
    const allowed = (probe, kase) => {
      const tool = tools.get(probe.tool);
      return tool && (tool.annotations?.readOnlyHint === true || server.allowSideEffects || kase.sideEffects);
    };
    await inFlight(plan.cases, plan.concurrency, async (kase) => {
      for (const probe of kase.probes) {
        if (!allowed(probe, kase)) continue;
        await session.request('tools/call', { name: probe.tool, arguments: probe.args }).catch(() => undefined);
        probes += 1;
      }
    });
    return { tools: tools.size, pages, probes };
  } finally {
    await session.end();
  }
}

const sides = await Promise.all(plan.servers.map(side));
process.stdout.write(`${JSON.stringify(sides)}\n`);
