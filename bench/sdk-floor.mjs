// The SDK floor: the floor client (bench/floor-client.cjs) plus what any gate built the way
// mcp-gate must be built cannot avoid: the scenario's YAML datasets read (with js-yaml, the faster
// of the gate's two readers; src/input/yaml-values.ts), and every request made through the SDK's
// Client (its initialize, its request bookkeeping, its zod check of each message) over the floor's
// own stdio channel. Nothing else: no contract, diff, checks or report. It gets the gate's own
// start-up shortcuts, so it is a floor, not a strawman: it runs packed, from a V8 code cache
// (bench/run-packed.cjs), and it starts both servers before the SDK and the YAML reader are
// initialised and the datasets read.
import { readFileSync } from 'node:fs';
import { lineChannel, runPlan } from './floor-client.cjs';

/**
 * An SDK Transport over a channel already started: messages that came before connect() wait for it.
 * Its `pid` tells the SDK's client it is on stdio, as the gate's transport does (src/connect/stdio-transport.ts).
 */
function channelTransport(server) {
  const early = [];
  const transport = {
    onmessage: undefined,
    channel: lineChannel(server, (message) => (transport.onmessage ? transport.onmessage(message) : early.push(message))),
    get pid() {
      return transport.channel.pid;
    },
    start: async () => {
      for (const message of early.splice(0)) transport.onmessage?.(message);
    },
    send: async (message) => {
      transport.channel.send(message);
    },
    close: async () => {
      await transport.channel.end();
      transport.onclose?.();
    },
  };
  return transport;
}

/** Usage: node bench/run-packed.cjs bench/.tmp/sdk-floor.cjs PLAN.json */
export async function main([planFile]) {
  const plan = JSON.parse(readFileSync(planFile, 'utf8'));
  const transports = plan.servers.map(channelTransport);
  // The client the gate uses (src/connect/sdk-client.ts), negotiating the protocol's era as it does
  // (the default timeouts.startupMs for its probe).
  const { Client } = await import('@modelcontextprotocol/client');
  const { load } = await import('js-yaml');
  const z = await import('zod');
  for (const file of plan.datasets) load(readFileSync(file, 'utf8'), { maxAliases: 0 });
  const AnyResult = z.unknown();
  const sides = await runPlan(plan, (_server, index) => {
    // As in the gate (src/connect/sdk-client.ts): no SDK output checks, so no ajv instance per client.
    const client = new Client(
      { name: 'sdk-floor', version: '0' },
      {
        capabilities: {},
        jsonSchemaValidator: {
          getValidator() {
            throw new Error('unused');
          },
        },
        versionNegotiation: { mode: 'auto', probe: { timeoutMs: 15_000 } },
      },
    );
    return {
      open: async () => {
        await client.connect(transports[index]);
        return client.getServerCapabilities() ?? {};
      },
      request: (method, params) => client.request({ method, params }, AnyResult),
      end: () => client.close(),
    };
  });
  process.stdout.write(`${JSON.stringify(sides)}\n`);
}
