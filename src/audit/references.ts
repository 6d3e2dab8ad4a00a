import { unlistedMentions } from '../contract/mentions.js';
import type { Contract } from '../contract/types.js';
import { finding } from '../findings/finding.js';
import { onTool } from '../findings/subject.js';
import type { Finding, Side } from '../findings/types.js';

/**
 * A tool the contract's text names but the contract does not list (contract/mentions.ts): one
 * finding per name. The tool it concerns is the one named and missing, so the sides compare by name.
 */
export function unlistedToolMentions(contract: Contract, side: Side): Finding[] {
  return unlistedMentions(contract).map(([name, places]) =>
    finding('tool-reference-missing', { name, places: [...places] }, { side, subject: onTool(name) }),
  );
}

/**
 * A server that declares no annotation on any tool: by the spec's defaults every tool is destructive
 * and open-world, so with side effects off the gate calls none of them and the live audit sees
 * nothing. Said once, up front, with what a person can do about it.
 */
export function unannotatedServer(contract: Contract, side: Side): Finding[] {
  const tools = contract.tools;
  if (tools.length === 0 || tools.some((t) => t.annotations !== null)) return [];
  return [finding('server-unannotated', { tools: tools.length }, { side })];
}

/** Several tools, so how they relate matters; one or two tools say it in their descriptions. */
const SEVERAL_TOOLS = 3;

/**
 * A server with several tools and no instructions (the write-ups: "tool schemas describe individual
 * tools; they don't describe how tools relate"): where ids come from, what to call first, how to page.
 */
export function serverWithoutInstructions(contract: Contract, side: Side): Finding[] {
  const tools = contract.tools.length;
  if (tools < SEVERAL_TOOLS || contract.server.instructions?.trim()) return [];
  return [finding('instructions-missing', { tools }, { side })];
}
