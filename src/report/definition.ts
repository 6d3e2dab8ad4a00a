import * as z from 'zod';
import { jsonSchemaOf, type Written } from '../base/json-schema-of.js';
import { caseTotals, change, code, finding, policy } from './definition-parts.js';
import { side } from './definition-side.js';
import { REPORT_SCHEMA_VERSION, type Report } from './types.js';

/**
 * The one definition of a saved report's schema: schemas/report.schema.json is written from it
 * (`npm run schemas`; a test fails while the committed file differs), and it says what readers of a
 * report depend on, not every field: what is not named is let through, so a report of an older or
 * newer build still reads. The compiler holds the `Report` type (report/types.ts) to it: every
 * report the gate writes is one this schema accepts.
 */
export const reportSchema = z
  .object({
    schemaVersion: z.literal(REPORT_SCHEMA_VERSION),
    generatedBy: z.object({
      name: z.string(),
      version: z.string(),
    }),
    startedAt: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}T[0-9:.]+Z$/)
      .meta({ format: 'date-time' }),
    finishedAt: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}T[0-9:.]+Z$/)
      .meta({ format: 'date-time' }),
    policy: policy.optional(),
    server: z.string().describe('Set when the run gated one server of a bundle: its name under `servers`.').optional(),
    config: z
      .object({
        file: z.string().nullable().optional(),
        datasets: z.array(z.string()).optional(),
        policy: policy.optional(),
        roles: z.array(z.string()).optional(),
      })
      .optional(),
    release: z
      .object({
        baselineVersion: z.string().nullable(),
        candidateVersion: z.string().nullable(),
        scheme: z.enum(['semver', 'calendar', 'unknown']),
        needed: z.enum(['major', 'minor', 'patch', 'none']),
        actual: z.literal(['major', 'minor', 'patch', 'none', 'lower', null]),
        summary: z.string(),
        findings: z.array(finding),
      })
      .describe(
        "The version bump the changes call for, against both sides' serverInfo.version (docs/releases.md). Absent in reports of older builds.",
      )
      .optional(),
    baseline: side,
    candidate: side,
    diff: z.object({
      summary: z.object({
        addedTools: z.number().int().min(0),
        removedTools: z.number().int().min(0),
        schemaBreakages: z.number().int().min(0),
        readOnlyHintRegressions: z.number().int().min(0),
        addedDestructiveTools: z.number().int().min(0),
        breaking: z.number().int().min(0).optional(),
        dangerous: z.number().int().min(0).optional(),
        safe: z.number().int().min(0).optional(),
      }),
      changes: z.array(change),
    }),
    audit: z.object({
      findings: z.array(finding),
    }),
    roles: z
      .array(
        z.object({
          name: z.string(),
          datasets: z.array(z.string()),
          allowedTools: z.union([z.array(z.string()), z.null()]),
          maxDestructiveTools: z.number().int().min(0).nullable(),
          cases: z.object({
            baseline: caseTotals,
            candidate: caseTotals,
          }),
          surface: z.union([
            z.object({
              allowed: z.array(z.string()),
              outside: z.array(z.string()),
              destructive: z.array(z.string()),
            }),
            z.null(),
          ]),
          findings: z.array(finding),
          verdict: z.enum(['Promote', 'Hold', 'Rollback']),
          reasons: z.array(
            z.object({
              code: z.unknown(),
              action: z.unknown(),
              count: z.unknown(),
              message: z.unknown(),
            }),
          ),
        }),
      )
      .describe(
        "Per role: its cases on both sides, the candidate's surface as the role sees it, its role findings, and the verdict its own signals ask for.",
      )
      .optional(),
    decision: z.object({
      verdict: z.enum(['Promote', 'Hold', 'Rollback']),
      approval: z
        .object({
          by: z.literal('label'),
          label: z.string(),
          verdictBefore: z.enum(['Hold', 'Rollback']),
          covers: z
            .array(z.string())
            .describe(
              'The signals the approval covers: those present when the label was given. A later run approves only if it brings nothing else.',
            )
            .optional(),
        })
        .describe(
          'Present when a person approved this run (a PR label): verdict is then Promote, and reasons still list what was approved.',
        )
        .optional(),
      signalKeys: z
        .array(z.string())
        .max(100000)
        .describe(
          'The keys of the signals behind the reasons: what an approve label given now would cover. The comment workflow applies the label from them.',
        )
        .optional(),
      staleApproval: z
        .object({
          label: z.string(),
          uncovered: z.number().int(),
          message: z.string(),
        })
        .describe('Present when the approve label is on the PR but this run brings findings it did not cover: the verdict stands.')
        .optional(),
      reasons: z.array(
        z.object({
          code: code,
          action: z.enum(['rollback', 'hold']),
          count: z.number().int().min(1),
          message: z.string(),
          tools: z.array(z.string()).optional(),
        }),
      ),
      exceptionsApplied: z
        .array(
          z.object({
            code: code,
            tool: z.string().optional(),
            fingerprint: z.string().optional(),
            reason: z.string(),
            expires: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
            matched: z.number().int().min(0).optional(),
          }),
        )
        .describe(
          "The config's exceptions that removed a signal on this run, as the config wrote them: code and expires keep the config's own patterns.",
        ),
    }),
    trimmed: z
      .object({
        maxBytes: z.number().int().min(0),
        note: z.string(),
        lists: z.array(
          z.object({
            at: z.string(),
            kept: z.number().int().min(0),
            of: z.number().int().min(0),
          }),
        ),
      })
      .describe(
        "What a report that would have been larger than its bound (32 MiB, README) left out: the longest lists a server's listing makes (its tools and features, as the report repeats them) keep their first entries only. The contract hashes, the diff, the audit and the decision are whole. Absent when nothing was left out, and in reports of earlier builds.",
      )
      .optional(),
    sidesInTurn: z
      .object({
        side: z.enum(['baseline', 'candidate']),
        failed: z.object({
          phase: z.string(),
          message: z.string(),
        }),
      })
      .describe(
        'Set when the sides could not run at once: `side` failed to start while the other ran (twice; `failed` is the second time) and started alone, so each side was started, read, replayed and sent its witnesses in turn. Absent when they ran at once, and in reports of earlier builds.',
      )
      .optional(),
    environment: z
      .object({
        containment: z
          .xor([
            z.null(),
            z.object({
              mechanism: z
                .enum(['pid-namespace', 'subreaper', 'none'])
                .describe(
                  'pid-namespace: each server in a PID namespace of its own, killed whole with the run. subreaper: a helper every orphan falls back to, which kills them all. none: only the process group and the run mark, which a process that leaves the group and clears its environment escapes.',
                ),
              route: z.literal(['unshare-root', 'unshare-user', 'sudo-unshare', 'subreaper', null]),
              unavailable: z.array(z.string()).describe('The stronger routes tried and refused, each with why.'),
              proc: z
                .enum(['own', 'shared'])
                .describe(
                  "own: each server sees only its own processes under /proc (a fresh mount in its PID namespace), not another server's environment, memory or root folder. shared: every process of the gate's user is in sight. Absent in reports of earlier builds.",
                )
                .optional(),
              baselineTrees: z
                .enum(['read-only', 'copied'])
                .describe(
                  "How a git baseline's built tree is kept from the servers. read-only: every server runs with the cache of built trees mounted read-only, without the capabilities to undo it. copied: no mount namespace; each baseline runs from a copy of its own, checked against its build's digest as it is made, which a server of the same user can still write. Absent in reports of earlier builds.",
                )
                .optional(),
            }),
          ])
          .describe(
            "What kept the servers' descendants (even those that left the process group and cleared their environment) from outliving the run; null when the gate started no server.",
          ),
        unprotectedTrees: z
          .array(z.string())
          .describe(
            "The pair's profiles that ran from a git baseline's built tree no mount namespace kept read-only (each from a checked copy of its own). Absent when there is none, and in reports of earlier builds.",
          )
          .optional(),
      })
      .describe('The machine the run had, as far as it bears on what the report can claim. Absent in reports of earlier builds.')
      .optional(),
    timing: z
      .object({
        totalMs: z.number().optional(),
        stages: z.record(z.string(), z.number()).optional(),
      })
      .describe('Wall-clock figures: the only part that differs between runs against the same servers.')
      .optional(),
  })
  .meta({ title: 'mcp-gate run report' })
  .describe('The canonical record of one gate run. Text, markdown and the `show` command render from it.');

/** schemas/report.schema.json, as this definition says it. */
export const reportJsonSchema = (): Record<string, unknown> => jsonSchemaOf(reportSchema, 'report.schema.json');

/** A report the gate writes that this schema would refuse fails the typecheck, here. */
const _accepted = (report: Report): Written<z.input<typeof reportSchema>> => report;
