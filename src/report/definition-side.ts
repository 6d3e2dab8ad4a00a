import * as z from 'zod';
import { caseTotals, source } from './definition-parts.js';

/** One side of a run as a saved report keeps it: its profile, its contract's digest and lists, its cases. */
export const side = z
  .object({
    profile: z.string(),
    transport: z.enum(['stdio', 'http', 'sse', 'snapshot']),
    available: z.boolean(),
    error: z
      .union([
        z.object({
          phase: z.unknown(),
          message: z.unknown(),
        }),
        z.null(),
      ])
      .optional(),
    retried: z
      .object({
        phase: z.string(),
        message: z.string(),
        alone: z
          .boolean()
          .describe(
            'Set when the second start failed too, beside the other side, and the side was started a third time alone, the other side stopped (see sidesInTurn).',
          )
          .optional(),
      })
      .describe(
        "Set when the side's first start failed (it exited, or broke the protocol before discovery ended) and it was started once more, after the other side: the phase and message of the first failure. The side is available when the second start worked. Absent when the first start worked, and in reports of older builds.",
      )
      .optional(),
    fallback: z
      .object({
        kind: z.enum(['last-report', 'empty']),
        report: z.string().nullable(),
        reason: z.object({
          phase: z.string(),
          message: z.string(),
        }),
      })
      .describe(
        "The baseline only: set when its server could not start and the profile's fallback stood in. kind last-report: its contract is the baseline's from the saved report named in report; empty: an empty server. reason: why the baseline could not start. Absent otherwise, and in reports of older builds.",
      )
      .optional(),
    server: z.object({
      name: z.string().nullable(),
      version: z.string().nullable(),
      protocolVersion: z.string().nullable(),
      instructions: z.string().nullable().optional(),
      era: z
        .literal(['modern', 'legacy', null])
        .describe(
          'How the session was opened: modern through server/discover (2026-07-28 and later), legacy through initialize. Absent in reports written before the gate spoke both eras.',
        )
        .optional(),
    }),
    contractHash: z
      .string()
      .regex(/^sha256:[0-9a-f]{64}$/)
      .nullable(),
    toolCount: z.number().int().min(0),
    tools: z.array(
      z.object({
        name: z.string(),
        hash: z.string(),
        effectiveAnnotations: z.unknown(),
        requiredArguments: z.unknown(),
      }),
    ),
    discovery: z.object({
      pages: z.number().int().min(0),
      durationMs: z.number().min(0),
      errors: z.array(
        z.object({
          message: z.unknown(),
          method: z
            .string()
            .optional()
            .describe('The list method that failed (a list beside tools/list). Absent otherwise, and in older reports.'),
          code: z
            .number()
            .int()
            .optional()
            .describe(
              'The JSON-RPC error code that list method answered with, where it answered one. Absent otherwise, and in older reports.',
            ),
        }),
      ),
      duplicates: z.array(z.string()).optional().describe('Names listed more than once (only the first definition is kept).'),
      lookalikes: z
        .array(z.array(z.string()))
        .optional()
        .describe(
          'Groups of distinct tool names that differ only in case, width, spacing or invisible characters: the gate calls none of them. Absent when none, and in older reports.',
        ),
    }),
    stderr: z
      .object({
        tail: z.string().optional(),
        droppedBytes: z.number().int().optional(),
      })
      .optional(),
    features: z
      .object({
        capabilities: z.record(z.string(), z.unknown()),
        prompts: z.union([
          z.array(
            z.object({
              name: z.unknown(),
              arguments: z.unknown(),
              hash: z.unknown(),
            }),
          ),
          z.null(),
        ]),
        resources: z.union([
          z.array(
            z.object({
              uri: z.unknown(),
              hash: z.unknown(),
            }),
          ),
          z.null(),
        ]),
        resourceTemplates: z.union([
          z.array(
            z.object({
              uriTemplate: z.unknown(),
              variables: z.unknown(),
              hash: z.unknown(),
            }),
          ),
          z.null(),
        ]),
        hash: z.string(),
      })
      .describe(
        'What the server offers beside its tools: the capabilities it declared, and its prompts, static resources and resource templates. A list is [] when its capability is not declared and null when it could not be read. Absent in reports before mcp-gate read them, and for a baseline snapshot that holds tools only: read that as unknown, never as removed.',
      )
      .optional(),
    cases: caseTotals,
    caseResults: z.array(
      z.object({
        id: z.string(),
        source: source.describe("Where the case's id is written in its dataset. Absent in older reports.").optional(),
        passed: z.boolean(),
        status: z.enum(['passed', 'failed', 'skipped']),
        failures: z.array(
          z.object({
            code: z.string(),
            message: z
              .string()
              .describe(
                'What failed, for people. A structured expectation names each place by JSON pointer into the result (/items/0/id); reports of mcp-gate 0.1.0 wrote $.items[0].id. Read it as text: failures are matched by code, tool and check, never by message.',
              ),
            check: z
              .string()
              .describe('What exactly failed: the expectation of an expectation-failed, the argument of a required-argument-missing.')
              .optional(),
            regression: z.boolean().describe("Candidate failures only: false when the baseline's same case fails this way too.").optional(),
          }),
        ),
        regression: z
          .boolean()
          .describe(
            "Candidate results only, when failed: false when every failure is one the baseline's same case has too (case-already-failing, not case-broken). Absent in older reports: read them as case-broken.",
          )
          .optional(),
        probes: z.array(
          z.object({
            tool: z.string().describe('The tool called; for a prompt or a resource probe, its name or URI.'),
            kind: z.enum(['prompt', 'resource']).describe('Absent for a tools/call probe: prompts/get or resources/read.').optional(),
            status: z.enum(['called', 'skipped', 'failed']),
            isError: z.boolean().nullable(),
            durationMs: z.number().nullable(),
            resultBytes: z.number().int().nullable(),
          }),
        ),
      }),
    ),
  })
  .meta({ id: 'side' });
