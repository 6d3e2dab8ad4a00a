import * as z from 'zod';
import { CLIENT_NAMES } from './clients.js';
import { DEFAULTS } from './defaults.js';

/**
 * The config's settings with defaults (timeouts, limits, the audit's tolerances, the promotion
 * policy, cases, bundle, reports, and a started HTTP server's readyTimeoutMs): part of its one
 * definition, config/definition.ts, which puts them in the file's structure. Each default comes
 * from config/defaults.ts, and its description says it.
 */

const KiB = 1024;
const MiB = 1024 * KiB;

/** A human figure for a default: 16 MiB rather than 16777216. */
function shown(value: number, unit: 'bytes' | 'number'): string {
  if (unit === 'bytes' && value >= MiB && value % MiB === 0) return `${value / MiB} MiB`;
  if (unit === 'bytes' && value >= KiB && value % KiB === 0) return `${value / KiB} KiB`;
  return String(value);
}

/** A setting with a default: the default is declared once, and the description says it. */
function setting(schema: z.ZodNumber, value: number, description: string, unit: 'bytes' | 'number' = 'number') {
  return schema.default(value).describe(`${description} Default ${shown(value, unit)}.`);
}

const int = () => z.number().int();
const codePattern = /^[a-z0-9]+(-[a-z0-9]+)*$/;

export const readyTimeout = setting(
  int().min(1),
  DEFAULTS.readyTimeoutMs,
  'http/sse with `command`: how long the started server gets until `url` answers any HTTP response.',
);

const exception = z.strictObject({
  code: z.string().regex(codePattern),
  tool: z.string().optional(),
  fingerprint: z.string().optional(),
  reason: z.string().min(1),
  expires: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .describe('YYYY-MM-DD; the exception stops applying after this day (UTC).'),
});

export const promotion = z.strictObject({
  rules: z
    .record(z.string().regex(codePattern), z.enum(['rollback', 'hold', 'ignore']))
    .describe('Finding code -> action, merged over the default policy.')
    .optional(),
  maxNewDestructiveTools: setting(
    int().min(0),
    DEFAULTS.promotion.maxNewDestructiveTools,
    'New destructive tools tolerated before tool-added-destructive fires.',
  ).optional(),
  maxBrokenCases: setting(
    int().min(0),
    DEFAULTS.promotion.maxBrokenCases,
    'Broken candidate cases tolerated before case-broken fires.',
  ).optional(),
  destructiveToolsOutsideRoles: z
    .enum(['hold', 'rollback'])
    .default(DEFAULTS.promotion.destructiveToolsOutsideRoles)
    .describe(
      "What tool-added-destructive does for a new tool that reaches no role's surface (no dataset defines roles, or every role's allowedTools leaves it out): hold for a person to approve, or roll back as it did before. Default hold.",
    )
    .optional(),
  unannotatedServers: z
    .enum(['hold', 'like-siblings'])
    .default(DEFAULTS.promotion.unannotatedServers)
    .describe(
      'What tool-added-destructive-by-default does for a new tool that declares no hint, when the baseline declares no hint on any of its tools either: hold for a person to look (the default: by the spec such a tool may be destructive, and nothing the server says tells otherwise), or like-siblings: judge it like the bare tools already in production, and do not hold it. A new tool that declares any hint, or a baseline that annotates any tool, is judged as usual. Default hold.',
    )
    .optional(),
  exceptions: z.array(exception).describe('Approved findings that do not count, until they expire.').optional(),
  release: z
    .boolean()
    .default(DEFAULTS.promotion.release)
    .describe(
      'The candidate is a release (a tag, a release branch), not a pull request head: version-unchanged then holds instead of informing. Default false.',
    )
    .optional(),
  deprecationWindowDays: setting(
    int().min(0),
    DEFAULTS.promotion.deprecationWindowDays,
    'The removal of a deprecated tool, argument or prompt (tool-removed-after-deprecation and its siblings) holds until the saved reports (reports.dir) show it marked deprecated at least this many days before the run; after that its removal is calm. 0: calm as soon as the baseline marks it.',
  ).optional(),
});

export const timeoutsSchema = z.strictObject({
  startupMs: setting(int().min(1), DEFAULTS.timeouts.startupMs, 'Spawn plus initialize, per side.'),
  requestMs: setting(int().min(1), DEFAULTS.timeouts.requestMs, 'Every request (tools/list page, tools/call).'),
  runMs: setting(int().min(1), DEFAULTS.timeouts.runMs, 'The whole run.'),
  killGraceMs: setting(int().min(0), DEFAULTS.timeouts.killGraceMs, "Between SIGTERM and SIGKILL when ending a server's process group."),
});

export const limitsSchema = z.strictObject({
  maxPages: setting(
    int().min(1),
    DEFAULTS.limits.maxPages,
    'Pages read per side of each list (tools, prompts, resources, resource templates).',
  ),
  maxTools: setting(
    int().min(1),
    DEFAULTS.limits.maxTools,
    'Tools read per side; also the most prompts, resources and resource templates read, each.',
  ),
  maxMessageBytes: setting(
    int().min(1024),
    DEFAULTS.limits.maxMessageBytes,
    'Largest single JSON-RPC message read into memory (the longest line, or an HTTP body without a line break). A larger tools/call answer over stdio fails that call; any other larger message ends the session.',
    'bytes',
  ),
  maxSideBytes: setting(
    int().min(1024),
    DEFAULTS.limits.maxSideBytes,
    "All the bytes one side may send over the run (discovery and cases together), over any transport. Past it the side's session ends: a candidate becomes candidate-unavailable, a baseline stops the run.",
    'bytes',
  ),
  maxResultBytes: setting(
    int().min(1024),
    DEFAULTS.limits.maxResultBytes,
    'Largest tools/call result read. A larger one is dropped unread: the probe fails with result-too-large and the session goes on, over stdio and HTTP alike. (What a result may cost the model is audit.resultBudgetBytes.)',
    'bytes',
  ),
  stderrTailBytes: setting(
    int().min(0),
    DEFAULTS.limits.stderrTailBytes,
    "How much of each server's stderr is kept for the report.",
    'bytes',
  ),
  witnessInstances: setting(
    int().min(0),
    DEFAULTS.limits.witnessInstances,
    'Instances the witness search judges at most for one side of one changed tool (docs/verdicts.md); 0 turns the search off, and schema breaks are then judged by the walk alone.',
  ),
  witnessNodes: setting(
    int().min(100),
    DEFAULTS.limits.witnessNodes,
    'Schema nodes the witness search reads at most for one side of one changed tool.',
  ),
  schemaNodesPerTool: setting(
    int().min(100),
    DEFAULTS.limits.schemaNodesPerTool,
    'Schema nodes, $refs followed, that one side of one changed tool may cost the comparison and the witness search. A tool past it is held as schema-changed, too complex to compare, with the figure, and is not walked.',
  ),
  schemaNodesPerRun: setting(
    int().min(1000),
    DEFAULTS.limits.schemaNodesPerRun,
    'Schema nodes all the schema walks of a run (comparison and witness search) may visit together; tools past it are held as schema-changed, not compared, and say so.',
  ),
  witnessInstancesPerRun: setting(
    int().min(0),
    DEFAULTS.limits.witnessInstancesPerRun,
    'Instances the witness search judges at most over the whole run; tools past it are not searched, and say so.',
  ),
  witnessCalls: setting(
    int().min(0),
    DEFAULTS.limits.witnessCalls,
    'Witnesses sent to the live servers at most over the whole run, each to the candidate and to the baseline through tools/call (docs/verdicts.md, "Confirmed live"); only to tools the consent guard lets the gate call on both sides. 0 sends none.',
  ),
});

export const auditSchema = z
  .strictObject({
    resultBudgetBytes: setting(
      int().min(1),
      DEFAULTS.audit.resultBudgetBytes,
      'What one tool result may cost the model, in UTF-8 bytes; over it is result-too-large. A case can set its own, expect.resultBudgetBytes.',
      'bytes',
    ),
    maxResultBytes: int().min(1).describe('Deprecated: the old name of resultBudgetBytes, still read.').optional(),
    resultGrowthPercent: setting(
      z.number().min(0),
      DEFAULTS.audit.resultGrowthPercent,
      'result-size-regression fires when the same probe returns this much more on the candidate (and more than resultGrowthMinBytes).',
    ),
    definitionCostGrowthPercent: setting(
      z.number().min(0),
      DEFAULTS.audit.definitionCostGrowthPercent,
      "tool-definition-cost-regression fires when the candidate's total tool definition cost grows by more than this (and more than definitionCostGrowthMinTokens); instructions-cost-regression, when the server's instructions do.",
    ),
    resultGrowthMinBytes: setting(
      int().min(0),
      DEFAULTS.audit.resultGrowthMinBytes,
      'The least growth in bytes that counts as a result-size-regression.',
    ),
    definitionCostGrowthMinTokens: setting(
      int().min(0),
      DEFAULTS.audit.definitionCostGrowthMinTokens,
      'The least growth in estimated tokens that counts.',
    ),
    clients: z
      .array(z.enum(CLIENT_NAMES))
      .default(DEFAULTS.audit.clients)
      .describe(
        'The clients the team depends on (docs/releases.md, "Client profiles"): each tool\'s definition is checked against what each accepts (client-rejects-tool), and each live result against what each takes (client-rejects-result); what the candidate newly breaks holds. One of: openai, openai-strict, anthropic (tool names and input schemas), mcp-sdk-1 (the MCP TypeScript SDK 1.x client, which refuses an error result whose structuredContent fails the outputSchema), mcp-client-2-beta (the SDK\'s 2.0.0 beta clients, which refuse an outputSchema that declares a dialect other than 2020-12; reported even when not listed). Default [mcp-sdk-1]: a list replaces it, so keep mcp-sdk-1 in yours to keep that check, or write [] for none.',
      ),
  })
  .describe('What the audit tolerates.');

export const casesSchema = z.strictObject({
  concurrency: setting(
    int().min(1).max(64),
    DEFAULTS.cases.concurrency,
    'Cases replayed at once on each side. Results keep dataset order.',
  ),
});

export const bundleSchema = z.strictObject({
  concurrency: setting(int().min(1).max(16), DEFAULTS.bundle.concurrency, 'Servers gated at once.'),
});

export const reportsSchema = z.strictObject({
  dir: z.string().min(1).default(DEFAULTS.reports.dir).describe('Where run reports are written, relative to this file. Default: reports.'),
});
