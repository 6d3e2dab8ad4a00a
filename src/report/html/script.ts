import { bytes, caseCell, renderCases } from './client/cases.js';
import { cappedBody, el, riskBadges, section, severityBadge, shortJson } from './client/dom.js';
import { renderFilters } from './client/filters.js';
import { findingRow, findingTable, renderFindings } from './client/findings.js';
import { percent, renderProfiles, renderSummary, renderVerdict } from './client/header.js';
import { main } from './client/main.js';
import { changesAt, jsonLines, schemaDiff } from './client/schema-diff.js';
import { changeRow, changeTable, renderSurface, statusLabel, toolCell, toolDetails } from './client/surface.js';

/**
 * The page's script: the client functions' own compiled source, in one closure, then main().
 * This keeps the browser code type-checked and linted with the rest, without a bundler; the
 * functions call each other by name and use nothing else from their modules at run time.
 */
const CLIENT = [
  el, cappedBody, section, severityBadge, riskBadges, shortJson,
  jsonLines, changesAt, schemaDiff,
  changeRow, changeTable, toolCell, statusLabel, toolDetails, renderSurface,
  renderVerdict, percent, renderProfiles, renderSummary,
  bytes, caseCell, renderCases, findingRow, findingTable, renderFindings,
  renderFilters, main,
];

let script: string | null = null;

export function clientScript(): string {
  script ??= `(() => {\n'use strict';\n${CLIENT.map((fn) => fn.toString()).join('\n')}\nmain();\n})();\n`;
  return script;
}
