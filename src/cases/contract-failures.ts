import type { ContractTool } from '../contract/types.js';
import type { Case, CaseFailure, RequiredTool } from './types.js';

/**
 * What a case can tell from the contract alone, before any call: required tools missing, their
 * arguments and hints not as required, forbidden tools exposed. Also the required tools present,
 * which the live probes then call.
 */
export function contractFailures(
  spec: Case,
  tools: Map<string, ContractTool>,
): { failures: CaseFailure[]; present: [RequiredTool, ContractTool][] } {
  const failures: CaseFailure[] = [];
  const present: [RequiredTool, ContractTool][] = [];
  for (const required of spec.requiredTools) {
    const tool = tools.get(required.toolName);
    if (!tool)
      failures.push({
        code: 'required-tool-missing',
        tool: required.toolName,
        message: `required tool ${required.toolName} is not exposed`,
      });
    else {
      failures.push(...structuralFailures(required, tool));
      present.push([required, tool]);
    }
  }
  for (const forbidden of spec.forbiddenTools ?? []) {
    if (tools.has(forbidden))
      failures.push({ code: 'forbidden-tool-exposed', tool: forbidden, message: `forbidden tool ${forbidden} is exposed` });
  }
  return { failures, present };
}

function structuralFailures(required: RequiredTool, tool: ContractTool): CaseFailure[] {
  const failures: CaseFailure[] = [];
  for (const argument of required.requiredArguments ?? []) {
    if (!tool.requiredArguments.includes(argument)) {
      const present = Object.hasOwn((tool.inputSchema?.properties ?? {}) as object, argument);
      failures.push({
        code: 'required-argument-missing',
        tool: tool.name,
        message: `required argument ${argument} is ${present ? 'no longer required' : 'missing'} in ${tool.name}`,
        check: argument,
      });
    }
  }
  const hints = [
    ['readOnlyHint', required.requireReadOnlyHint, 'read-only-hint-mismatch'],
    ['destructiveHint', required.requireDestructiveHint, 'destructive-hint-mismatch'],
  ] as const;
  for (const [hint, wanted, code] of hints) {
    const actual = tool.effectiveAnnotations[hint];
    if (wanted !== undefined && actual !== wanted) {
      const source = tool.defaultedHints.includes(hint) ? ' (absent, so the spec default)' : '';
      failures.push({
        code,
        tool: tool.name,
        message: `${tool.name} effective ${hint} is ${actual}${source}; the case requires ${wanted}`,
      });
    }
  }
  return failures;
}
