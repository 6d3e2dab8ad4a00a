/**
 * What MCP clients accept of a tool's definition (docs/releases.md, "Client profiles", cites each
 * rule's public source, and says which could not be checked). `audit.clients` names the ones a team
 * depends on; audit/clients.ts checks every tool against them. Plain data: a rule changes here and
 * in the docs together.
 */
export interface ClientProfile {
  /** Who the client is, for messages. */
  label: string;
  /** Tool names the client accepts, and the sentence saying so. */
  name: { pattern: RegExp; rule: string };
  /** JSON Schema keywords the client refuses anywhere in an input schema. */
  refusedKeywords: readonly string[];
  /**
   * OpenAI's strict mode: every object closes itself (`additionalProperties: false`) and lists every
   * property in `required` (an optional field is a required one that accepts null).
   */
  closedObjects: boolean;
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

export const CLIENT_PROFILES = {
  openai: {
    label: 'OpenAI function calling',
    name: API_NAME,
    refusedKeywords: [],
    closedObjects: false,
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
    refusedKeywords: [],
    closedObjects: false,
    source: 'https://platform.claude.com/docs/en/agents-and-tools/tool-use/define-tools (tool name)',
  },
} as const satisfies Record<string, ClientProfile>;

export type ClientName = keyof typeof CLIENT_PROFILES;
export const CLIENT_NAMES = Object.keys(CLIENT_PROFILES) as [ClientName, ...ClientName[]];
