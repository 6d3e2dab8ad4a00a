import * as z from 'zod';
import { jsonSchemaOf } from '../base/json-schema-of.js';
import {
  auditSchema,
  bundleSchema,
  casesSchema,
  limitsSchema,
  promotion,
  readyTimeout,
  reportsSchema,
  timeoutsSchema,
} from './definition-settings.js';

/**
 * The one definition of the config file. Everything else comes from it:
 * - schemas/gate.config.schema.json, which editors read through the `$schema` line and the gate
 *   validates against (`configJsonSchema()`, written by `npm run schemas`; a test fails when the
 *   committed file differs);
 * - the types of the file as written (`RawConfig`, below) and of its settings once defaulted
 *   (`Timeouts`, `Limits`, ... in config/types.ts, from the settings in config/definition-settings.ts);
 * - the schema's `default` keywords and descriptions, from the defaults (config/defaults.ts), which
 *   the gate reads at run time without building this definition.
 * Cross-field rules the schema cannot say (a baseline that names a defined profile, keys that do
 * not apply to a profile's transport) live in config/rules.ts and config/profiles.ts.
 */

/** A path inside HOME: relative, and never out of it. */
const homeEntry = z.string().regex(/^(?!\/)(?!.*(^|\/)\.\.(\/|$)).+$/);

const profile = z
  .strictObject({
    transport: z
      .enum(['stdio', 'snapshot', 'http', 'sse'])
      .describe(
        'How to reach the server: stdio (default) starts `command` and speaks over its stdin/stdout; http is streamable HTTP at `url`; sse is the legacy HTTP+SSE transport at `url`; snapshot reads a contract file instead of a server.',
      )
      .optional(),
    command: z
      .string()
      .min(1)
      .describe(
        "stdio: the executable to start. http/sse: optional; when set, the gate starts this server itself (in its own process group), waits until `url` answers, gates it and ends it. ${VAR} reads the gate's environment.",
      )
      .optional(),
    args: z.array(z.string()).describe("Arguments of `command`. ${VAR} and ${env:VAR} read the gate's environment.").optional(),
    cwd: z
      .string()
      .describe(
        "Working directory of `command`, relative to this file. Default: this file's directory. ${VAR} reads the gate's environment.",
      )
      .optional(),
    env: z
      .record(z.string(), z.string())
      .describe("Variables the started server gets beside a safe default set (PATH, HOME, ...). ${VAR} reads the gate's environment.")
      .optional(),
    url: z
      .string()
      .regex(/^https?:\/\//)
      .describe(
        "http/sse: the server's endpoint, e.g. http://127.0.0.1:8808/mcp (streamable HTTP) or http://127.0.0.1:8808/sse (legacy SSE). ${VAR} reads the gate's environment.",
      )
      .optional(),
    headers: z
      .record(z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/), z.string().regex(/^[^\r\n]*$/))
      .describe(
        'http/sse: headers sent with every request, e.g. { Authorization: "Bearer ${TOKEN}" }. ${VAR} reads the gate\'s environment; an unset variable stops the run. Values never appear in reports, logs or errors.',
      )
      .optional(),
    readyTimeoutMs: readyTimeout.optional(),
    tmpdir: z
      .enum(['own', 'shared'])
      .describe(
        "A started server's TMPDIR (and TMP, TEMP). own (default): a fresh folder for each side of each run, removed afterwards, so a baseline and a candidate of the same server never meet in their temp files. shared: the gate's own.",
      )
      .optional(),
    home: z
      .union([
        z.enum(['shared', 'isolated']),
        z.strictObject({
          link: z
            .array(homeEntry)
            .describe('Entries of the real HOME linked into the isolated one (shared with the real HOME), e.g. [.npm, .npmrc, .kube].')
            .optional(),
          copy: z
            .array(homeEntry)
            .describe("Entries of the real HOME copied into the isolated one (the side's own copy), e.g. [.config/acme].")
            .optional(),
        }),
      ])
      .describe(
        "A started server's HOME. shared (default): the gate's HOME, with its npx cache, .npmrc and kubeconfig. isolated: an empty HOME for each side of each run, removed afterwards, for a server that keeps state there and collides with its twin. { link: [...], copy: [...] }: isolated, with these entries of the real HOME linked or copied in; an entry this machine does not have is skipped.",
      )
      .optional(),
    secrets: z
      .array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/))
      .describe(
        'Names of variables (`${NAME}` anywhere in this profile) and `env` keys whose values are secrets, beside those the gate recognises (names with TOKEN, SECRET, KEY, PASSWORD, AUTH, ..., and values shaped like tokens). Secrets are shown as *** in every output; other values, such as a folder, are shown as they are.',
      )
      .optional(),
    allowSideEffects: z.boolean().describe('Allow probe calls of tools that are not read-only. Default false.').optional(),
    safeTools: z
      .array(z.string().min(1))
      .describe(
        'Tools a person declares safe to call against this server although their hints do not say read-only (for a server that annotates nothing). Cases probe them and record records them; a tool listed twice or with hints that contradict each other is still never called.',
      )
      .optional(),
    path: z
      .string()
      .min(1)
      .describe(
        'snapshot: a contract snapshot file, relative to this file; or git:REF:FILE, the file as it is at REF (FILE from the top of the clone), e.g. git:origin/main:contracts/baseline.contract.json.',
      )
      .optional(),
    git: z
      .strictObject({
        ref: z
          .string()
          .min(1)
          .regex(/^[^\s:]+$/)
          .describe(
            "The commit, branch or tag to start the server from, e.g. origin/main. The gate uses the merge-base of REF and HEAD (where a pull request branched off). Default: the change's base, --policy-base (the Action passes the pull request's base).",
          )
          .optional(),
        build: z
          .string()
          .min(1)
          .describe(
            'A shell command that builds the checked-out tree, e.g. npm ci && npm run build. It runs once per commit and build command (the built tree is cached), at the top of the checked-out tree, with the environment a server gets (no tokens).',
          )
          .optional(),
      })
      .describe(
        "Start this profile's server from the tree of a git ref instead of the working tree: a worktree of this clone, built once with `build`, cached by commit, and used as the folder `cwd` and relative `args` are read in. command and args start the server from there.",
      )
      .optional(),
    fallback: z
      .enum(['none', 'last-report', 'empty'])
      .describe(
        "As the baseline, what stands in when its server cannot start: none (default) stops the run (exit 3); last-report takes this profile's contract from the newest report in reports.dir; empty compares with an empty server. Either fallback holds the run (baseline-fallback) and every format says it was used.",
      )
      .optional(),
    from: z
      .string()
      .regex(/^.+#.+$/)
      .describe(
        'FILE#SERVER: take command, args, env, cwd (or url and headers) from a server of an MCP client config (.mcp.json or Claude Desktop `mcpServers`, .vscode/mcp.json `servers`, .cursor/mcp.json), relative to this file. Keys set on the profile win; env is merged.',
      )
      .optional(),
  })
  .meta({
    id: 'profile',
    // Which keys each transport needs. Keys that do not apply to a transport are reported by config/profiles.ts, with why.
    allOf: [
      { if: { properties: { transport: { const: 'snapshot' } }, required: ['transport'] }, then: { required: ['path'] } },
      // A profile with `from` takes command or url from the client config, before this schema is checked.
      {
        if: { properties: { transport: { enum: ['http', 'sse'] } }, required: ['transport'], not: { required: ['from'] } },
        then: { required: ['url'] },
      },
      { if: { properties: { transport: { const: 'stdio' } }, not: { required: ['from'] } }, then: { required: ['command'] } },
    ],
  });

const server = z
  .strictObject({
    profiles: z
      .record(z.string(), profile)
      .describe("Profiles of this server only, beside the top-level ones; a name defined in both means this server's.")
      .optional(),
    baseline: z.string().min(1).describe("Profile of this server's release in production."),
    candidate: z.string().min(1).describe("Profile of this server's release to promote."),
    datasets: z
      .array(z.string().min(1))
      .describe("This server's frozen role cases, relative to this file. Default: the top-level datasets.")
      .optional(),
    promotion: promotion.describe('Merged over the top-level promotion: rules key by key, exceptions added, numbers replaced.').optional(),
  })
  .meta({ id: 'server' });

const configSchema = z
  .strictObject({
    $schema: z.string().optional(),
    version: z.literal(1).describe('Config format version. Always 1.'),
    profiles: z
      .record(z.string(), profile)
      .meta({ minProperties: 1 })
      .describe('Named ways to reach a server. `baseline` and `candidate` name two of them.')
      .optional(),
    baseline: z.string().min(1).describe('Profile of the release in production.').optional(),
    candidate: z.string().min(1).describe('Profile of the release to promote.').optional(),
    datasets: z.array(z.string().min(1)).describe('Files of frozen role cases (YAML or JSON), relative to this file.').optional(),
    servers: z
      .record(z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/), server)
      .meta({ minProperties: 1 })
      .describe(
        'A bundle: several servers gated in one run, each with its own baseline and candidate. `mcp-gate run` gates them all (bundle.concurrency at a time), writes one report per server and a bundle summary; the bundle verdict is the worst of its servers. With servers, leave out the top-level baseline and candidate.',
      )
      .optional(),
    bundle: bundleSchema.optional(),
    reports: reportsSchema.optional(),
    timeouts: timeoutsSchema.optional(),
    limits: limitsSchema.optional(),
    cases: casesSchema.optional(),
    audit: auditSchema.optional(),
    promotion: promotion.optional(),
  })
  .meta({
    title: 'mcp-gate configuration',
    description: 'Which MCP server profiles to compare, which role cases to replay, and how to decide Promote / Hold / Rollback.',
    // A config gates one pair (profiles, baseline, candidate) unless it declares servers.
    allOf: [{ if: { not: { required: ['servers'] } }, then: { required: ['profiles', 'baseline', 'candidate'] } }],
  });

/** The config file as written (before env overrides are checked, defaults applied and paths resolved). */
export type RawConfig = z.input<typeof configSchema>;
export type RawProfile = z.input<typeof profile>;
export type RawServer = z.input<typeof server>;
export type RawPromotion = z.input<typeof promotion>;

/** schemas/gate.config.schema.json, as this definition says it (draft-07, for ajv and editors). */
export const configJsonSchema = (): Record<string, unknown> => jsonSchemaOf(configSchema, 'gate.config.schema.json');
