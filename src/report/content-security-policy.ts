import { createHash } from 'node:crypto';

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * The Content-Security-Policy of every HTML page the gate writes (the report, the history): the
 * page's own style, and its script when it has one, allowed by hash, and nothing from anywhere. A
 * second line of defence if server text ever became markup, and proof the page loads nothing.
 */
export const contentSecurityPolicy = (page: { style: string; script?: string }): string =>
  [
    `default-src 'none'`,
    `style-src ${sha256(page.style)}`,
    ...(page.script === undefined ? [] : [`script-src ${sha256(page.script)}`]),
    `base-uri 'none'`,
    `form-action 'none'`,
  ].join('; ');
