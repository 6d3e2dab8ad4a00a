import type { CaseFailure, CaseResult, Observation } from '../../src/cases/types.js';

/** One probe's observation of tool `t` in case `C`: a result as a server answered it, with the call's arguments. */
export const observed = (result: unknown, args: Record<string, unknown> = {}): Observation => ({
  caseId: 'C',
  tool: 't',
  args,
  result,
  resultBytes: 0,
});

/** A case's result in role `r`, from `d.cases.yaml`, with no probe. */
export const caseResult = (id: string, status: CaseResult['status'], failures: CaseFailure[] = []): CaseResult => ({
  id,
  role: 'r',
  dataset: 'd.cases.yaml',
  status,
  passed: status === 'passed',
  failures,
  probes: [],
});
