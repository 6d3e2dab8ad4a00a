// Synthetic tool definitions of realistic size (~1 KB each: nested objects, enums, descriptions).
export function syntheticTool(i, variant = 0) {
  const status = ['open', 'pending', 'closed', 'archived'];
  return {
    name: `Domain${i % 50}.Action${i}`,
    description: `Performs action ${i} on records of domain ${i % 50}. Returns matching records with their ids, owners and status history.`,
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 1, maxLength: variant === 1 ? 100 : 200, description: 'Free-text filter over record titles and bodies.' },
        status: { type: 'string', enum: variant === 2 ? status.slice(0, 3) : status, description: 'Only records in this status.' },
        limit: { type: 'integer', minimum: 1, maximum: 100, default: 20, description: 'Most records to return.' },
        owner: {
          type: 'object',
          properties: { team: { type: 'string' }, email: { type: 'string', format: 'email' } },
          required: variant === 3 ? ['team', 'email'] : ['team'],
        },
        tags: { type: 'array', items: { type: 'string', pattern: '^[a-z-]+$' }, maxItems: 10 },
      },
      required: ['query'],
    },
    annotations: { readOnlyHint: variant !== 4, openWorldHint: false },
  };
}
