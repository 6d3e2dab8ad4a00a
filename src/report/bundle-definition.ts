import * as z from 'zod';
import { jsonSchemaOf, type Written } from '../base/json-schema-of.js';
import { BUNDLE_SCHEMA_VERSION, type BundleSummary } from './bundle-summary.js';

/**
 * The one definition of a bundle summary's schema: schemas/bundle.schema.json is written from it
 * (`npm run schemas`; a test fails while the committed file differs). The compiler holds the
 * `BundleSummary` type (report/bundle-summary.ts) to it: every summary the gate writes is one it accepts.
 */
const reason = z
  .object({
    code: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/),
    action: z.enum(['rollback', 'hold']),
    count: z.number().int().min(1),
    message: z.string(),
    tools: z.array(z.string()).optional(),
  })
  .meta({ id: 'reason' });

export const bundleSummarySchema = z
  .object({
    schemaVersion: z.literal(BUNDLE_SCHEMA_VERSION),
    kind: z.literal('bundle'),
    generatedBy: z.object({
      name: z.string(),
      version: z.string(),
    }),
    startedAt: z.string().meta({ format: 'date-time' }),
    finishedAt: z.string().meta({ format: 'date-time' }),
    config: z.string().nullable(),
    verdict: z
      .literal(['Promote', 'Hold', 'Rollback', null])
      .describe("The worst verdict of the servers and of the bundle's own findings; null when the bundle could not be decided (exit 3)."),
    decided: z.boolean(),
    servers: z.array(
      z.strictObject({
        name: z.string().min(1),
        status: z.enum(['decided', 'undecided']),
        verdict: z.literal(['Promote', 'Hold', 'Rollback', null]),
        baseline: z.string().nullable(),
        candidate: z.string().nullable(),
        reasons: z.array(reason),
        approval: z
          .record(z.string(), z.unknown())
          .describe("Set when an approve label turned this server's Hold or Rollback into Promote: by, label, verdictBefore, covers.")
          .optional(),
        staleApproval: z
          .record(z.string(), z.unknown())
          .describe("Set when the label is on the PR but does not cover this server's findings: label, uncovered, message.")
          .optional(),
        error: z.string().nullable().describe('Why the server is undecided.'),
        report: z.string().nullable().describe("The server's report, relative to the working directory."),
      }),
    ),
    collisions: z.array(
      z.strictObject({
        tool: z.string(),
        servers: z.array(z.string()).min(2),
        regression: z.boolean().describe('False when the baselines already shared the name: reported, not judged.'),
      }),
    ),
    decision: z.object({
      verdict: z.enum(['Promote', 'Hold', 'Rollback']),
      reasons: z.array(reason),
      exceptionsApplied: z.array(z.unknown()),
    }),
  })
  .meta({ title: 'mcp-gate bundle summary' })
  .describe(
    'What `mcp-gate run` on a config with servers, or `mcp-gate merge`, writes beside the per-server reports: <stamp>-bundle.json.',
  );

/** schemas/bundle.schema.json, as this definition says it. */
export const bundleJsonSchema = (): Record<string, unknown> => jsonSchemaOf(bundleSummarySchema, 'bundle.schema.json');

/** A summary the gate writes that this schema would refuse fails the typecheck, here. */
const _accepted = (summary: BundleSummary): Written<z.input<typeof bundleSummarySchema>> => summary;
