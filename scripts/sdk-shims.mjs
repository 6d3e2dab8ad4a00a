// What the packed CLI gives the SDK client for `@modelcontextprotocol/client/_shims` (scripts/pack-options.mjs).
// The SDK's Node shim exports its ajv-based output validator, a copy of ajv of its own (about 210 KB
// of the packed file, set up on every run), which the gate never constructs: it passes its own
// `jsonSchemaValidator` to every Client (src/connect/session.ts) and checks tool output itself.
// Anything that would construct the SDK's default fails loudly instead of validating nothing.

/** Node has no CORS: a fetch TypeError is a real network error (as the SDK's Node shim says). */
export const CORS_IS_POSSIBLE = false;

export class DefaultJsonSchemaValidator {
  constructor() {
    throw new Error('mcp-gate packs the SDK client without its default JSON Schema validator; pass jsonSchemaValidator');
  }
}
