// The floor's client, shared by bench/floor.cjs (the floor) and bench/sdk-floor.mjs (the same
// client with the SDK's Client as its session). No SDK here, and no checks. CommonJS, as the gate's
// launchers are: an ES module entry would cost the floor Node's ES module loader, which the gate no
// longer pays.
'use strict';
const { spawn } = require('node:child_process');

/**
 * BENCH_STAMP_MESSAGES=1: a line on stderr for each message sent and received, with the client's
 * time (performance.now()), its method or the result's first key. For looking, never for figures.
 */
const stamp =
  process.env.BENCH_STAMP_MESSAGES === '1'
    ? (way, m) =>
        process.stderr.write(
          `${performance.now().toFixed(0)} ms ${way} ${m.method ?? (m.error ? 'error' : Object.keys(m.result ?? {})[0])}\n`,
        )
    : null;

/** Newline-delimited JSON-RPC over a child's stdio: every line that parses goes to `onMessage`. */
function lineChannel(server, onMessage) {
  const child = spawn(server.command, server.args, {
    cwd: server.cwd,
    env: { ...process.env, ...server.env },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  let buffered = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    buffered += chunk;
    let newline;
    while ((newline = buffered.indexOf('\n')) !== -1) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      let message;
      try {
        message = JSON.parse(line);
      } catch {
        continue;
      }
      stamp?.('received', message);
      onMessage(message);
    }
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.stdin.on('error', () => undefined);
  return {
    pid: child.pid,
    send: (message) => {
      stamp?.('sent', message);
      child.stdin.write(`${JSON.stringify(message)}\n`);
    },
    /** stdin closed, SIGTERM, and the exit awaited. */
    end: () => {
      child.stdin.end();
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** The floor's session: requests matched by id, server requests refused. */
function rawSession(server, protocolVersion) {
  const waiting = new Map();
  let nextId = 1;
  const channel = lineChannel(server, (message) => {
    if (message.method !== undefined) {
      if (message.id !== undefined) channel.send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'not supported' } });
      return;
    }
    const settle = waiting.get(message.id);
    waiting.delete(message.id);
    settle?.(message);
  });
  const request = (method, params) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, (message) => (message.error ? reject(new Error(`${method}: ${message.error.message}`)) : resolve(message.result)));
      channel.send({ jsonrpc: '2.0', id, method, params });
    });
  return {
    /** Resolves with the capabilities the server declared. */
    open: async () => {
      const result = await request('initialize', { protocolVersion, capabilities: {}, clientInfo: { name: 'floor', version: '0' } });
      channel.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      return result?.capabilities ?? {};
    },
    request,
    end: channel.end,
  };
}

async function inFlight(items, limit, work) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** Every item of one list, following nextCursor to the end. */
async function listAll(session, method, key) {
  const items = [];
  let pages = 0;
  let cursor;
  do {
    const page = await session.request(method, cursor === undefined ? {} : { cursor });
    pages += 1;
    items.push(...page[key]);
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return { items, pages };
}

/**
 * One side: open the session, follow tools/list to the end, then every list the server declares a
 * capability for (prompts, resources, resource templates), as the gate does; make the probe calls (cases in flight up
 * to the gate's concurrency, a case's probes one after the other), end the session. Returns the
 * work done, and `readyAt`, when the server answered initialize.
 */
async function side(plan, server, session) {
  try {
    const capabilities = await session.open();
    // When this server answered initialize, on the clock the bench times the run with (milliseconds
    // since the epoch): the bench subtracts the moment it spawned this client (bench/measure.mjs).
    const readyAt = performance.timeOrigin + performance.now();
    const listed = await listAll(session, 'tools/list', 'tools');
    const tools = new Map(listed.items.map((tool) => [tool.name, tool]));
    const pages = listed.pages;
    if (capabilities.prompts) await listAll(session, 'prompts/list', 'prompts');
    if (capabilities.resources) {
      await listAll(session, 'resources/list', 'resources');
      await listAll(session, 'resources/templates/list', 'resourceTemplates');
    }
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
    return { tools: tools.size, pages, probes, readyAt };
  } finally {
    await session.end();
  }
}

/** Both servers in parallel, each through a session from `openSession(server, index)`; per side, the work done. */
const runPlan = (plan, openSession) => Promise.all(plan.servers.map((server, index) => side(plan, server, openSession(server, index))));

module.exports = { lineChannel, rawSession, runPlan };
