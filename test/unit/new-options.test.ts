import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../src/config/types.js';
import { decide } from '../../src/decide/decide.js';
import { collectSignals } from '../../src/decide/signals.js';
import { diffContracts } from '../../src/diff/index.js';
import { contractOf, obj, tool } from '../helpers/contracts.js';
import { recordedPairs } from '../helpers/releases.js';
import { sweep } from '../helpers/property.js';

const NEW_OPTIONS = new Set(['input-destructive-option-added', 'input-safety-override-added']);
const writes = { annotations: { readOnlyHint: false } };
const pairs = (before: Record<string, unknown>, after: Record<string, unknown>) =>
  diffContracts(contractOf(before), contractOf(after)).map((c) => [c.code, c.severity, c.after]);

describe('a new operation inside an existing tool that destroys or exposes (docs/verdicts.md)', () => {
  const actions = (values: string[], extra = writes) =>
    tool('manage_backups', obj({ action: { type: 'string', enum: values } }, ['action']), extra);

  it('an enum of actions gains delete_backup: held, with the sentence that names it', () => {
    const changes = diffContracts(contractOf(actions(['list', 'create'])), contractOf(actions(['list', 'create', 'delete_backup'])));
    expect(changes.map((c) => [c.code, c.severity])).toEqual([
      ['input-destructive-option-added', 'dangerous'],
      ['input-enum-widened', 'safe'],
    ]);
    expect(changes[0]!.message).toBe(
      '"manage_backups" argument "action" gains the value "delete_backup", and the tool is not read-only: a caller can now ask it to do what the name says. The name says it destroys.',
    );
    const policy = { ...DEFAULTS.promotion, rules: {}, exceptions: [] };
    expect(decide(collectSignals(changes, [], []), policy, '2026-11-28').verdict).toBe('Hold');
  });

  const visibility = (values: string[]) => ({ visibility: { type: 'string', enum: values } });
  it.each([
    ['a database made publicly exposable by a switch', {}, { publiclyAccessible: { type: 'boolean' } }, 'publiclyAccessible'],
    ['a visibility that gains "public"', visibility(['private', 'internal']), visibility(['private', 'internal', 'public']), 'public'],
    ['a value in an anyOf of consts', {}, { mode: { anyOf: [{ const: 'keep' }, { const: 'purge-all' }] } }, 'purge-all'],
    ['an item value of a list', {}, { ops: { type: 'array', items: { enum: ['read', 'dropTable'] } } }, 'dropTable'],
  ])('held: %s', (_, before, after, option) => {
    const db = (properties: Record<string, unknown>) => tool('db', obj({ name: { type: 'string' }, ...properties }), writes);
    expect(pairs(db(before), db(after)).filter(([code]) => NEW_OPTIONS.has(code as string))).toEqual([
      ['input-destructive-option-added', 'dangerous', option],
    ]);
  });

  const readOnly = { annotations: { readOnlyHint: true } };
  it.each([
    ['on a read-only tool, whose hint says it changes nothing', actions(['list'], readOnly), actions(['list', 'delete'], readOnly)],
    [
      'a value the tool offered under another argument (a rename)',
      actions(['list', 'delete']),
      tool('manage_backups', obj({ mode: { type: 'string', enum: ['list', 'delete'] } }, ['mode']), writes),
    ],
  ])('not held: %s', (_, before, after) => {
    const codes = diffContracts(contractOf(before), contractOf(after)).map((c) => c.code);
    expect(codes.length).toBeGreaterThan(0);
    expect(codes.filter((c) => NEW_OPTIONS.has(c))).toEqual([]);
  });

  it('values whose names say nothing destructive are additions only; "dropdown" is not "drop"', () => {
    expect(pairs(actions(['list']), actions(['list', 'create', 'rename', 'dropdown', 'remove_filter']))).toEqual([
      ['input-enum-widened', 'safe', ['list', 'create', 'rename', 'dropdown', 'remove_filter']],
    ]);
  });
});

describe('a new optional input through which the model lifts a safety guard', () => {
  const navigate = (properties: Record<string, unknown>, description = 'Navigate to a URL.') =>
    tool('navigate', obj({ url: { type: 'string' }, ...properties }, ['url']), { description });

  it('PU1, published server-puppeteer: allowDangerous, self-approved by the same caller, is held; launchOptions is an addition', () => {
    const changes = diffContracts(
      contractOf(navigate({})),
      contractOf(
        navigate({
          launchOptions: { type: 'object', description: 'PuppeteerJS LaunchOptions. If changed and not null, browser restarts.' },
          allowDangerous: {
            type: 'boolean',
            description:
              'Allow dangerous LaunchOptions that reduce security. When false, dangerous args like --no-sandbox will throw errors.',
          },
        }),
      ),
    );
    expect(changes.map((c) => [c.code, c.severity, c.path])).toEqual([
      ['input-property-added', 'safe', '/inputSchema/properties/allowDangerous'],
      ['input-property-added', 'safe', '/inputSchema/properties/launchOptions'],
      ['input-safety-override-added', 'dangerous', '/inputSchema/properties/allowDangerous'],
    ]);
    expect(changes[2]!.message).toBe(
      '"navigate" accepts new argument "allowDangerous", and its text says it lifts a guard: a model that is refused can now set it itself. "Allow dangerous LaunchOptions that reduce security."',
    );
  });

  it.each([
    ['skips a confirmation', { yes: { type: 'boolean', description: 'Skip the confirmation prompt before deleting.' } }],
    ['disables a safety check', { unsafe: { type: 'boolean', description: 'Disables the SSRF safety check for private addresses.' } }],
    ['bypasses hooks', { noVerify: { type: 'boolean', description: 'Bypass pre-commit and commit-msg hooks.' } }],
    // Written after the twentieth set's FU13 was seen: approval done by the server, not a person.
    [
      'approves on its own',
      { nonInteractive: { type: 'boolean', description: 'When true, breakpoints are auto-approved without human interaction.' } },
    ],
    ['runs without a person', { unattended: { type: 'boolean', description: 'Run the plan without user review.' } }],
  ])('held: an input whose own text %s', (_, properties) => {
    expect(pairs(navigate({}), navigate(properties)).map(([code]) => code)).toContain('input-safety-override-added');
  });

  it("held: an input the tool's own text names as lifting a guard", () => {
    const after = navigate({ force: { type: 'boolean' } }, 'Navigate to a URL. Set force to bypass the URL allowlist check.');
    expect(pairs(navigate({}), after).map(([code]) => code)).toContain('input-safety-override-added');
  });

  it.each([
    ['an ordinary option', { timeout: { type: 'integer', description: 'Milliseconds to wait for the page.' } }, 'Navigate to a URL.'],
    [
      'a cache bypass, which is no guard',
      { fresh: { type: 'boolean', description: 'Bypass the cache and fetch again.' } },
      'Navigate to a URL.',
    ],
    ['a guard text that names another input', { wait: { type: 'boolean' } }, 'Navigate to a URL. Set force to bypass the allowlist check.'],
  ])('reported as added: %s', (_, properties, description) => {
    const codes = pairs(navigate({}), navigate(properties, description)).map(([code]) => code);
    expect(codes.filter((c) => c !== 'description-reworded')).toEqual(['input-property-added']);
  });
});

// Measured on every consecutive pair of recorded releases (test/fixtures/releases): each firing is
// listed, and each is one a reviewer would want to read before the release ships.
describe('the two rules on the recorded releases', () => {
  sweep(
    'fire 18 times in 891 pairs: a stash clear, a hook bypass, a self-approved dangerous launch, a file push that may now delete, and on the fresh pairs a column delete, workflows exposed to MCP, public teams, a backup delete, an option overwrite, public templates, a forced file delete, an output clear and a log clear; on the twentieth set, breakpoints auto-approved and a public template type',
    () => {
      const all = recordedPairs();
      const fired = all.flatMap(([before, after]) =>
        diffContracts(before.contract, after.contract, null)
          .filter((c) => NEW_OPTIONS.has(c.code))
          .map((c) => `${before.pkg} ${before.version} -> ${after.version}: ${c.code} ${c.tool} ${c.path} ${JSON.stringify(c.after)}`),
      );
      expect(all).toHaveLength(891);
      expect(fired).toEqual([
        // The twentieth held-out set's FU13, which its reviewer holds: "When true, breakpoints are
        // auto-approved without human interaction". Read as lifting a guard since that set's first
        // run, which promoted it (docs/judgements.md).
        '@a5c-ai/babysitter-sdk 0.0.183 -> 0.0.187: input-safety-override-added run_create /inputSchema/properties/nonInteractive "nonInteractive"',
        // The eleventh held-out set's FK4: `clearFirst` empties the device's log buffer before a wait
        // on it, and its reviewer promotes the release (a noise Hold of that set's first run).
        'claude-in-mobile 4.1.0 -> 4.3.0: input-destructive-option-added system /inputSchema/properties/clearFirst "clearFirst"',
        '@cyanheads/git-mcp-server 2.3.2 -> 2.5.8: input-safety-override-added git_commit /inputSchema/properties/noVerify "noVerify"',
        '@cyanheads/git-mcp-server 2.3.2 -> 2.5.8: input-destructive-option-added git_stash /inputSchema/properties/mode "clear"',
        // The twentieth set's FU6, which its reviewer promotes: a template type `PUBLIC` (held there
        // for other changes as well, a noise Hold of that set's first run).
        '@documenso/sdk-typescript 0.5.1 -> 0.8.1: input-destructive-option-added envelopes-update /inputSchema/properties/request/properties/data/properties/templateType "PUBLIC"',
        // The ninth held-out set's FI17 (held by its reviewer) and FI18 (rolled back for a removed tool;
        // `clear_output` empties the editor's output panel, which is no loss a reviewer holds for).
        'godot-mcp-server 0.4.4 -> 0.5.0: input-safety-override-added delete_file /inputSchema/properties/force "force"',
        'godot-mcp-server 0.5.0 -> 0.6.0: input-destructive-option-added run_scene /inputSchema/properties/clear_output "clear_output"',
        // The fifth held-out set's FE36, which its reviewer holds or rolls back.
        '@masonator/coolify-mcp 2.19.4 -> 3.5.0: input-destructive-option-added storages /inputSchema/properties/action "backup_delete"',
        '@modelcontextprotocol/server-puppeteer 0.6.2 -> 2025.5.12: input-safety-override-added puppeteer_navigate /inputSchema/properties/allowDangerous "allowDangerous"',
        // Recorded after the rules were written (docs/judgements.md, FS10 and FS21): both pairs are
        // ones their reviewer holds, FS10's naming deleteColumn and exposeToMcp.
        'n8n-mcp 2.74.1 -> 2.76.0: input-destructive-option-added n8n_manage_datatable /inputSchema/properties/action "deleteColumn"',
        'n8n-mcp 2.74.1 -> 2.76.0: input-destructive-option-added n8n_test_workflow /inputSchema/properties/exposeToMcp "exposeToMcp"',
        'n8n-mcp 2.74.1 -> 2.76.0: input-destructive-option-added n8n_workflow_versions /inputSchema/properties/exposeToMcp "exposeToMcp"',
        // The eighth held-out set's FH22 (held by its reviewer) and FH29 (rolled back for other changes).
        '@respira/wordpress-mcp-server 8.3.24 -> 8.3.25: input-destructive-option-added respira_update_option /inputSchema/properties/allow_object_overwrite "allow_object_overwrite"',
        '@runpod/mcp-server 3.4.0 -> 4.0.0: input-destructive-option-added create-template /inputSchema/properties/body/properties/public "public"',
        '@runpod/mcp-server 3.4.0 -> 4.0.0: input-destructive-option-added update-template /inputSchema/properties/body/properties/public "public"',
        '@tacticlaunch/mcp-linear 1.1.2 -> 1.4.1: input-destructive-option-added linear_createTeam /inputSchema/properties/visibility "public"',
        '@tacticlaunch/mcp-linear 1.1.2 -> 1.4.1: input-destructive-option-added linear_updateTeam /inputSchema/properties/visibility "public"',
        '@zereight/mcp-gitlab 2.1.49 -> 2.1.64: input-destructive-option-added push_files /inputSchema/properties/files/items/properties/action "delete"',
      ]);
    },
  );
});
