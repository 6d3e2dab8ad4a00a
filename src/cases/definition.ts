import * as z from 'zod';
import { jsonSchemaOf } from '../base/json-schema-of.js';
import type { FeatureExpectation, RequiredPrompt, RequiredResource, RequiredTool } from './types.js';

/**
 * The one definition of a dataset file (datasets/*.cases.yaml): schemas/dataset.schema.json, which
 * editors read and the loader validates against, is written from it (`npm run schemas`; a test fails
 * while the committed file differs). The compiler holds the loader's types (cases/types.ts) to it:
 * what this schema accepts is what they describe.
 */
const requiredTool = z
  .strictObject({
    toolName: z.string().min(1),
    requiredArguments: z.array(z.string()).describe('Arguments the live schema must require.').optional(),
    requireReadOnlyHint: z.boolean().describe('The effective readOnlyHint this case needs.').optional(),
    requireDestructiveHint: z.boolean().describe('The effective destructiveHint this case needs.').optional(),
    probeArguments: z.record(z.string(), z.unknown()).describe('When present, the tool is called with these arguments.').optional(),
    expectedOutputContains: z.string().describe("Text the probe result's text content must contain.").optional(),
    volatile: z
      .array(z.string().regex(/^(\/[^/]*)*$/))
      .describe(
        "JSON pointers into the result's data (structuredContent, or JSON text), `*` for any key or index, whose values differ from run to run (timestamps, ids, counters): left out when the candidate's result is compared with the baseline's. Example: /items/*/updatedAt",
      )
      .optional(),
    expect: z
      .strictObject({
        isError: z.boolean().optional(),
        contains: z.array(z.string()).optional(),
        matches: z.string().describe('A regular expression the result text must match.').optional(),
        structured: z
          .record(z.string(), z.unknown())
          .describe(
            "A subset the result's data must contain: its structuredContent, or, when it has none, its first text block that is a JSON object (as most servers answer). Keys only in the result are fine, inside array items too; in arrays every item counts, in order and in number. A failure names each place by JSON pointer: /items/0/id.",
          )
          .optional(),
        resultBudgetBytes: z
          .number()
          .int()
          .min(1)
          .describe(
            "What this probe's result may cost the model, in UTF-8 bytes, instead of the config's audit.resultBudgetBytes; over it the case fails and the result is result-too-large.",
          )
          .optional(),
        maxResultBytes: z.number().int().min(1).describe('Deprecated: the old name of resultBudgetBytes, still read.').optional(),
      })
      .optional(),
  })
  .meta({ id: 'requiredTool' });

const featureExpect = z
  .strictObject({
    contains: z.array(z.string()).optional(),
    matches: z.string().describe('A regular expression the text must match.').optional(),
    mimeType: z.string().describe('Resources only: the MIME type one of the contents must have.').optional(),
  })
  .describe('What the text of the answer must hold: for a prompt, the text of its messages; for a resource, its text contents.')
  .meta({ id: 'featureExpect' });

const requiredPrompt = z
  .strictObject({
    name: z.string().min(1),
    requiredArguments: z
      .array(z.string())
      .describe('Arguments the live prompt must mark required, and no others it must have dropped.')
      .optional(),
    arguments: z
      .record(z.string(), z.string())
      .describe('When present, the prompt is fetched with prompts/get and these arguments.')
      .optional(),
    expect: featureExpect.optional(),
  })
  .meta({ id: 'requiredPrompt' });

const requiredResource = z
  .strictObject({
    uri: z.string().min(1).optional(),
    uriTemplate: z.string().min(1).optional(),
    variables: z.record(z.string(), z.string()).optional(),
    expect: featureExpect.optional(),
  })
  .describe('A resource by its `uri`, or by a `uriTemplate` the server must list and the `variables` to fill it with.')
  .meta({ id: 'requiredResource' });

const caseEntry = z
  .strictObject({
    id: z.string().min(1),
    userTask: z.string().min(1).describe('What the user asks the agent, in their words.'),
    requiredTools: z
      .array(requiredTool)
      .describe(
        'Tools the role needs, checked on the contract and probed with tools/call. A case needs requiredTools, requiredPrompts or requiredResources.',
      )
      .optional(),
    requiredPrompts: z
      .array(requiredPrompt)
      .describe("Prompts the role's client offers, probed with prompts/get on both sides.")
      .optional(),
    requiredResources: z.array(requiredResource).describe('Resources the role reads, probed with resources/read on both sides.').optional(),
    forbiddenTools: z.array(z.string().min(1)).describe('Tools that must not be exposed to this role.').optional(),
    sideEffects: z
      .enum(['allowed', 'forbidden'])
      .describe('allowed: probe tools that are not read-only even when the profile does not allow side effects.')
      .optional(),
    roles: z
      .array(z.string().min(1))
      .meta({ uniqueItems: true })
      .describe(
        "Further roles this case stands for, beside the dataset's role. Its result counts in each role's breakdown, and a broken case weighs on each of those roles.",
      )
      .optional(),
  })
  .meta({ id: 'case' });

export const datasetSchema = z
  .strictObject({
    $schema: z.string().optional(),
    role: z
      .union([
        z.string().min(1),
        z.strictObject({
          name: z.string().min(1).describe("The role's name, e.g. support-agent."),
          allowedTools: z
            .array(z.string().min(1))
            .describe(
              'Tools this role may see: exact names or globs (`*` matches any run of characters, `?` one character), e.g. Tickets.*. A candidate tool outside it that the baseline did not already expose is role-surface-leak.',
            )
            .optional(),
          maxDestructiveTools: z
            .number()
            .int()
            .min(0)
            .describe(
              'Effectively destructive tools tolerated among the tools this role may see; more on the candidate (and more than on the baseline) is role-destructive-limit.',
            )
            .optional(),
        }),
      ])
      .describe(
        'The agent role these cases stand for: a name, or { name, allowedTools, maxDestructiveTools } to scope the tools the role may see.',
      ),
    cases: z.array(caseEntry).min(1),
  })
  .meta({ title: 'mcp-gate dataset of frozen role cases' });

/** schemas/dataset.schema.json, as this definition says it. */
export const datasetJsonSchema = (): Record<string, unknown> => jsonSchemaOf(datasetSchema, 'dataset.schema.json');

/** A part of a dataset this schema accepts that the loader's types do not describe fails the typecheck, here. */
const _read = {
  tool: (tool: z.input<typeof requiredTool>): RequiredTool => tool,
  prompt: (prompt: z.input<typeof requiredPrompt>): RequiredPrompt => prompt,
  resource: (resource: z.input<typeof requiredResource>): RequiredResource => resource,
  expectation: (expect: z.input<typeof featureExpect>): FeatureExpectation => expect,
};
