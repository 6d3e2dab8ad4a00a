import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../src/config/defaults.js';
import { configJsonSchema } from '../../src/config/definition.js';
import { ROOT } from '../helpers/cli.js';

const COMMITTED = join(ROOT, 'schemas/gate.config.schema.json');

describe('the config has one definition (src/config/definition.ts)', () => {
  it('is what schemas/gate.config.schema.json says, byte for byte (run `npm run schemas` after changing it)', () => {
    expect(readFileSync(COMMITTED, 'utf8')).toBe(`${JSON.stringify(configJsonSchema(), null, 2)}\n`);
  });

  it('declares every default once (src/config/defaults.ts): the schema shows exactly the defaults the gate applies', () => {
    type Node = { properties?: Record<string, Node>; default?: unknown; definitions?: Record<string, Node> };
    const schema = configJsonSchema() as Node;
    const shown = (node: Node) =>
      Object.fromEntries(Object.entries(node.properties ?? {}).flatMap(([k, v]) => ('default' in v ? [[k, v.default]] : [])));
    const sections = ['reports', 'timeouts', 'limits', 'cases', 'bundle', 'audit', 'promotion'] as const;
    // Both ways: a default the schema shows that the gate would not apply fails here, and the reverse.
    for (const section of sections)
      expect({ section, defaults: shown(schema.properties![section]!) }).toEqual({ section, defaults: DEFAULTS[section] });
    expect(shown(schema.definitions!.profile!)).toEqual({ readyTimeoutMs: DEFAULTS.readyTimeoutMs });
    expect(Object.keys(DEFAULTS).sort()).toEqual([...sections, 'readyTimeoutMs'].sort());
  });

  it('says each default in its description, at the figures the docs give', () => {
    const schema = configJsonSchema() as {
      properties: Record<string, { properties?: Record<string, { default?: unknown; description?: string }> }>;
    };
    for (const section of ['timeouts', 'limits', 'cases', 'bundle', 'audit', 'reports'] as const) {
      const properties = schema.properties[section]!.properties!;
      for (const key of Object.keys(DEFAULTS[section])) expect(properties[key]?.description, `${section}.${key}`).toMatch(/Default/);
    }
    expect(DEFAULTS.limits).toMatchObject({
      maxMessageBytes: 16 * 1024 * 1024,
      maxSideBytes: 64 * 1024 * 1024,
      maxResultBytes: 4 * 1024 * 1024,
    });
    expect(DEFAULTS.timeouts).toEqual({ startupMs: 15_000, requestMs: 30_000, runMs: 600_000, killGraceMs: 2_000 });
    expect(DEFAULTS.audit.resultBudgetBytes).toBe(32 * 1024);
  });

  it('tells a drifted schema file apart', () => {
    const drifted = JSON.parse(readFileSync(COMMITTED, 'utf8')) as {
      properties: { timeouts: { properties: { runMs: { default: number } } } };
    };
    drifted.properties.timeouts.properties.runMs.default = 1;
    expect(`${JSON.stringify(drifted, null, 2)}\n`).not.toBe(`${JSON.stringify(configJsonSchema(), null, 2)}\n`);
  });
});
