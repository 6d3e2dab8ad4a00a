/**
 * What MCP clients accept of a tool's definition and of its results (docs/releases.md, "Client profiles", cites each
 * rule's public source, the releases that behave so, and what could not be checked).
 * `audit.clients` names the ones a team depends on; audit/clients.ts checks every tool, and every
 * live result, against them. Plain data: a rule changes here and in the docs together.
 */
export interface ClientProfile {
  /** Who the client is, for messages. */
  label: string;
  /** Tool names the client accepts, and the sentence saying so. */
  name?: { pattern: RegExp; rule: string };
  /** JSON Schema keywords the client refuses anywhere in an input schema. */
  refusedKeywords?: readonly string[];
  /**
   * OpenAI's strict mode: every object closes itself (`additionalProperties: false`) and lists every
   * property in `required` (an optional field is a required one that accepts null).
   */
  closedObjects?: boolean;
  /**
   * The `$schema` URIs (without a trailing `#`) the client compiles an outputSchema under; none
   * declared is 2020-12. It compiles the schema before each call, so a tool whose outputSchema
   * declares another dialect cannot be called at all.
   */
  outputDialects?: readonly string[];
  /**
   * The client validates an error result's structuredContent (`isError: true`) against the
   * outputSchema as it does a success's, and throws instead of handing over the tool's error.
   */
  checksErrorResults?: boolean;
  /**
   * Read even when `audit.clients` does not name it: a tool it refuses that it did not refuse on
   * the baseline is reported (`client-would-reject-tool`), never judged.
   */
  watched?: boolean;
  /** Where the rules come from. */
  source: string;
}

/** Function names of the OpenAI and Anthropic APIs: letters, digits, `_` and `-`, 1 to 64 of them. */
const API_NAME = { pattern: /^[a-zA-Z0-9_-]{1,64}$/, rule: 'names must match ^[a-zA-Z0-9_-]{1,64}$' };

/** Keywords OpenAI's strict mode (Structured Outputs) does not support. */
const OPENAI_STRICT_REFUSED = [
  'allOf',
  'not',
  'if',
  'then',
  'else',
  'dependentRequired',
  'dependentSchemas',
  'dependencies',
  'patternProperties',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contains',
  'minContains',
  'maxContains',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'oneOf',
] as const;

/** JSON Schema 2020-12, as the SDK's 2020-12-only validator recognised it (http and https). */
const DIALECT_2020_12 = ['https://json-schema.org/draft/2020-12/schema', 'http://json-schema.org/draft/2020-12/schema'] as const;

export const CLIENT_PROFILES = {
  openai: {
    label: 'OpenAI function calling',
    name: API_NAME,
    source: 'https://platform.openai.com/docs/api-reference/chat/create (tools[].function.name)',
  },
  'openai-strict': {
    label: 'OpenAI function calling with strict: true',
    name: API_NAME,
    refusedKeywords: OPENAI_STRICT_REFUSED,
    closedObjects: true,
    source: 'https://platform.openai.com/docs/guides/structured-outputs#supported-schemas',
  },
  anthropic: {
    label: 'Anthropic Messages API tools',
    name: API_NAME,
    source: 'https://platform.claude.com/docs/en/agents-and-tools/tool-use/define-tools (tool name)',
  },
  'mcp-sdk-1': {
    label: 'The MCP TypeScript SDK client (@modelcontextprotocol/sdk 1.11.4 to 1.32.2)',
    checksErrorResults: true,
    source: 'modelcontextprotocol/typescript-sdk src/client/index.ts callTool; typescript-sdk#1943, #2748',
  },
  'mcp-client-2-beta': {
    label: 'The MCP TypeScript SDK 2.0 beta client (@modelcontextprotocol/client 2.0.0-beta.1 to beta.5)',
    outputDialects: DIALECT_2020_12,
    watched: true,
    source: 'modelcontextprotocol/typescript-sdk packages/core-internal/src/validators/ajvProvider.ts; typescript-sdk#2532',
  },
} as const satisfies Record<string, ClientProfile>;

export type ClientName = keyof typeof CLIENT_PROFILES;
export const CLIENT_NAMES = Object.keys(CLIENT_PROFILES) as [ClientName, ...ClientName[]];
