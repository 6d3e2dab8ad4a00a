import { isObject } from '../base/json-object.js';
import type { ContractTool } from '../contract/types.js';
import type { Change } from '../findings/types.js';
import { toolChange } from './change.js';
import { fieldValue, sameValue } from './field-value.js';

/** `execution.taskSupport` as the tool declares it; null when it declares none (which means forbidden). */
const taskSupportOf = (tool: ContractTool): unknown => {
  const execution = tool.extra.execution;
  return isObject(execution) && Object.hasOwn(execution, 'taskSupport') ? (execution.taskSupport ?? null) : null;
};

/**
 * Whether a tool may be called outside a task: a tool that every client could call and that now
 * requires one is `task-support-required`, held (clients without tasks cannot call it at all); any
 * other move, a default written out or dropped included, is `task-support-changed`, whose severity
 * says who it affects (findings/codes/tools.ts).
 */
export function diffTaskSupport(before: ContractTool, after: ContractTool): Change[] {
  const [was, now] = [taskSupportOf(before), taskSupportOf(after)];
  if (sameValue(was, now)) return [];
  const code = now === 'required' && was !== 'required' ? 'task-support-required' : 'task-support-changed';
  return [toolChange(code, after.name, ['execution', 'taskSupport'], fieldValue(was), fieldValue(now))];
}
