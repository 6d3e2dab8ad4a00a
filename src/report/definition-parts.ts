import * as z from 'zod';

/**
 * The parts of a saved report's schema that its lists repeat: a change, a finding, where each comes
 * from and what it is about, the witness behind a break, the totals of a side's cases. Each has an
 * id, so schemas/report.schema.json names it once under `definitions` (report/definition.ts).
 */

export const policy = z
  .object({
    base: z.string(),
    files: z.array(
      z.object({
        file: z.string(),
        change: z.enum(['added', 'changed', 'removed']),
        runBy: z
          .string()
          .describe("Set for a file the baseline profile of this name runs from the working tree: the baseline is the change's own code.")
          .optional(),
      }),
    ),
    error: z.string().describe('Why the comparison could not be made (no git, base commit not in the clone).').optional(),
  })
  .describe(
    "The gate's own config and datasets compared with the change's base commit (--policy-base; the action passes the pull request's base). Absent when not asked.",
  )
  .meta({ id: 'policy' });

export const code = z
  .string()
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/)
  .meta({ id: 'code' });

export const severity = z.enum(['breaking', 'dangerous', 'safe']).meta({ id: 'severity' });

export const caseTotals = z
  .object({
    total: z.number().int().min(0),
    passed: z.number().int().min(0),
    failed: z.number().int().min(0),
    skipped: z.number().int().min(0),
    passRate: z.number().min(0).max(1).nullable(),
  })
  .meta({ id: 'caseTotals' });

export const subject = z
  .object({
    kind: z.enum(['tool', 'server', 'prompt', 'resource', 'template', 'capability']),
    tool: z.string().optional(),
    at: z.array(z.string()).describe("For a tool: the JSON pointer's segments inside its definition; [] for the tool itself.").optional(),
    field: z.string().optional(),
    prompt: z.string().optional(),
    argument: z.string().optional(),
    uri: z.string().optional(),
    uriTemplate: z.string().optional(),
    capability: z.array(z.string()).optional(),
  })
  .describe(
    "What a change or a finding is about. A change's tool and path are derived from it; absent in reports of mcp-gate 0.1.0, whose readers restore it from tool and path.",
  )
  .meta({ id: 'subject' });

export const liveAnswer = z
  .object({
    kind: z
      .enum(['result', 'error', 'failed'])
      .describe(
        'result: answered without an error; error: isError or a JSON-RPC error; failed: no answer read (a timeout, an exit, over the byte cap).',
      ),
    validation: z
      .boolean()
      .describe(
        "It reads as input validation (the SDK's Input validation error, JSON-RPC -32602, pydantic's); on a result, an error written as data, which refutes nothing.",
      )
      .optional(),
    text: z
      .string()
      .max(301)
      .describe(
        "What it said, made inert, then cut to at most 300 characters and an ellipsis. Absent on a baseline's result: the call was chosen by the candidate's schema, so the baseline's data is not kept (only that it answered).",
      )
      .optional(),
  })
  .describe("One side's answer to a witness.")
  .meta({ id: 'liveAnswer' });

export const liveCheck = z
  .object({
    outcome: z.enum(['confirmed', 'refuted', 'already-refused', 'same-failure', 'default-kept', 'ignored', 'unconfirmed', 'not-called']),
    note: z.string().describe('Why it was not called, or what left it unconfirmed.').optional(),
    case: z
      .string()
      .describe(
        'The case whose call, which both sides answered without an error, the witness was sent on, with the witness\'s value for the argument the change is about (docs/verdicts.md, "On a case\'s arguments"). Absent where the witness was sent as the search built it, and in older reports.',
      )
      .optional(),
    candidate: liveAnswer.optional(),
    baseline: liveAnswer.optional(),
  })
  .describe(
    'The input witness sent through tools/call to the candidate and the baseline (docs/verdicts.md, "Confirmed live"). refuted: the candidate answered without an error, so the break is held at most. confirmed: the candidate refused it as invalid input and the baseline answered it. already-refused: both refused it as invalid input, the baseline naming the argument the change is about, so the schema the baseline listed did not say what it took and the break is held at most (newer reports only). same-failure: both failed on their way to another host with the same error, so the candidate took the arguments and the break is held at most (newer reports only). default-kept: a call leaving out an argument now required failed on both sides with the same error, which names the default the baseline declared for it, so the candidate still fills it in and the break is held at most (newer reports only). ignored: the probe of a removed argument, sent on the call of a case, which the candidate answered exactly as it answers that call without the argument, where the answer of the baseline changed with it: input-option-ignored, a break (newer reports only). unconfirmed: any other answer; the break stands. not-called: note says why (consent, limits.witnessCalls, a server gone). For the probe of an input closed to undeclared arguments (a call with mcp_gate_undeclared added), refuted or same-failure leaves it input-closed with severity safe, not held (newer reports only). Absent where no server was live, where no answer could move the verdict, and in older reports.',
  )
  .meta({ id: 'liveCheck' });

export const witness = z
  .object({
    status: z.enum(['found', 'unconfirmed', 'unsearchable', 'proven', 'probe']),
    side: z.enum(['input', 'output']),
    instance: z.unknown().describe('The instance, when found.').optional(),
    refusal: z.string().describe("Why the refusing schema refuses it: ajv's first error, with the instance path.").optional(),
    tried: z.number().int().min(0).describe('Instances judged.'),
    note: z.string().describe('What was tried, or why nothing could be.').optional(),
    optionLike: z
      .literal(true)
      .describe(
        "Every refused call the search found passes a string that starts with '-' (a command line reads it as an option), and a second search that spared such values found none: argument-injection hardening, held rather than rolled back. Absent otherwise, and in older reports.",
      )
      .optional(),
    live: liveCheck.optional(),
  })
  .describe(
    "The instance search's evidence for a schema change (src/witness/). found: an argument object the baseline's inputSchema accepts and the candidate's refuses (for outputs, a result the candidate's outputSchema allows and the baseline's refuses). unconfirmed: no such instance within the budget, which proves nothing, so the change is held, not rolled back. unsearchable: the schemas could not be searched; note says why. proven: a proof (note) shows no instance tells the schemas apart (normal-form equality, a structural rule, patterns compared as languages), so the change is calm; never a search that found nothing. Absent in older reports.",
  )
  .meta({ id: 'witness' });

export const resultEvidence = z
  .object({
    outcome: z.enum(['still-returned', 'only-null', 'gone', 'unseen']),
    baseline: z.number().int().min(0).describe('Results of the tool the baseline answered without an error.'),
    candidate: z.number().int().min(0).describe('Results of the tool the candidate answered without an error.'),
    read: z.literal(true).optional(),
    never: z.literal(true).optional(),
    admitted: z
      .literal(true)
      .describe(
        "unseen only: the candidate's schema still lets the field come (it is still declared, or its object takes undeclared fields), so the change is held, not rolled back.",
      )
      .optional(),
    fixes: z.string().describe('The finding code the change is part of a fix for.').optional(),
  })
  .describe(
    "What the run's results show of an output field no longer declared or no longer required (docs/verdicts.md, \"Output changes and the results\"). still-returned: every candidate result that could hold it does, so it is held, not rolled back. only-null: the baseline's results held it only as null (never: not at all) and the candidate's leave it out, part of a fix for the finding named in fixes; held too. gone: the candidate's results lack it where the baseline's carried a value, or a case reads it (read); the break stands. unseen: no result of the tool holds a place for it, so it is judged from the schemas alone. Absent on other changes and in older reports.",
  )
  .meta({ id: 'resultEvidence' });

export const source = z
  .object({
    file: z.string().describe('Relative to the working directory of the run.'),
    line: z.number().int().min(1),
  })
  .describe(
    "Where something a person keeps in the repository says it: a case's id in its dataset, a tool in a committed snapshot, a role's scope. Recorded when the file was read, so a format places it without reading the file again.",
  )
  .meta({ id: 'source' });

export const eraCheck = z
  .object({
    outcome: z.enum(['served', 'not-served', 'differs', 'not-checked']),
    revision: z.string().describe('The revision asked for: the one the baseline negotiated.'),
    tried: z.string().describe('What was tried.'),
    answer: z
      .string()
      .describe('What the candidate answered (server text, at most 240 characters and an ellipsis), or why nothing was asked.'),
  })
  .describe(
    "On a protocol-version-changed change across eras: the candidate asked for the baseline's revision (src/contract/era-check.ts). served: it answered that revision and listed the same contract, so the change is safe; not-served: it refused that revision or answered another; differs: it answered but listed another contract; not-checked: nothing could be asked (a snapshot candidate, the run's deadline). Absent on other changes and in older reports.",
  )
  .meta({ id: 'eraCheck' });

export const change = z
  .object({
    code: code,
    severity: severity,
    subject: subject.optional(),
    tool: z.string().nullable(),
    path: z.string(),
    message: z.string(),
    fingerprint: z
      .string()
      .regex(/^[0-9a-f]{16}$/)
      .describe("The first 16 hex digits of the change's canonical hash: what an exception's fingerprint names."),
    witness: witness.optional(),
    results: resultEvidence.optional(),
    source: source
      .describe(
        "Where the baseline's snapshot file writes what the change is about. Absent for a live baseline, for a subject the snapshot does not list, and in older reports.",
      )
      .optional(),
    eraCheck: eraCheck.optional(),
    before: z.unknown(),
    after: z.unknown(),
  })
  .meta({ id: 'change' });

export const finding = z
  .object({
    code: code,
    severity: severity,
    side: z.enum(['baseline', 'candidate']),
    subject: subject
      .describe(
        'What the finding is about: a tool (or a place in its definition), a resource a case read, or the server as a whole (kind server, no field); tool is derived from it. Absent in reports of builds before findings carried one, whose readers restore it from tool.',
      )
      .optional(),
    tool: z.string().nullable(),
    message: z.string(),
    regression: z.boolean().optional(),
    direction: z
      .enum(['new', 'still', 'fixed'])
      .describe(
        'Audit findings: new on the candidate, still there on both sides, or fixed (a baseline finding the candidate no longer has where it was looked for). Absent in older reports.',
      )
      .optional(),
    path: z.string().describe("JSON pointer into the result, for findings that compare the two sides' results.").optional(),
    client: z
      .string()
      .describe(
        'client-rejects-tool, client-rejects-result, client-would-reject-tool: the client profile (audit.clients) that refuses the tool or the result. Absent on other findings and in older reports.',
      )
      .optional(),
    source: source
      .describe(
        "Where it comes from: the case whose probe showed it, the dataset that scopes the role, or the baseline snapshot's entry for its tool. Absent where there is none, and in older reports.",
      )
      .optional(),
  })
  .meta({ id: 'finding' });
