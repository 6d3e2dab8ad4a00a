import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

/** README.md and every docs/*.md page: the documents people follow from the front door. */
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Markdown without its fenced code blocks and inline code, where a `[x](y)` is not a link. */
function prose(markdown: string): string {
  return markdown.replace(/^\s*```[\s\S]*?^\s*```/gm, '').replace(/`[^`\n]*`/g, '');
}

function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const match of prose(markdown).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = anchorOf(match[1]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Every relative link target in a page: `[text](target)` and `![alt](target)`, not URLs. */
export function relativeLinks(markdown: string): string[] {
  const targets = [...prose(markdown).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!);
  return targets.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** What is wrong with each relative link of a page, as `page: target: why`. */
function brokenLinks(page: string): string[] {
  const text = readFileSync(join(ROOT, page), 'utf8');
  const broken: string[] = [];
  for (const target of relativeLinks(text)) {
    const [path, anchor] = target.split('#', 2) as [string, string | undefined];
    const file = path === '' ? join(ROOT, page) : join(ROOT, dirname(page), decodeURI(path));
    if (!existsSync(file)) {
      broken.push(`${page}: ${target}: no file ${relative(ROOT, file)}`);
      continue;
    }
    if (anchor !== undefined && file.endsWith('.md') && statSync(file).isFile() && !anchorsOf(readFileSync(file, 'utf8')).has(anchor)) {
      broken.push(`${page}: ${target}: no heading with the anchor #${anchor} in ${relative(ROOT, file)}`);
    }
  }
  return broken;
}

describe('links in README.md and docs/', () => {
  it.each(PAGES)('%s: every relative link names a file that exists, and a heading that exists', (page) => {
    expect(brokenLinks(page)).toEqual([]);
  });

  it('the README links every docs page the front door promises', () => {
    const links = relativeLinks(readFileSync(join(ROOT, 'README.md'), 'utf8'));
    for (const topic of ['config', 'codes', 'audit', 'roles', 'bundles', 'http', 'reports', 'security', 'architecture', 'github-action']) {
      expect(links).toContain(`docs/${topic}.md`);
    }
  });

  it('finds a broken file link and a broken anchor (the check can fail)', () => {
    expect(relativeLinks('see [a](docs/nothing.md) and [b](#x), not `[c](d.md)` nor [e](https://x.y)')).toEqual(['docs/nothing.md', '#x']);
    expect(anchorOf('Servers over HTTP')).toBe('servers-over-http');
    expect(anchorOf('The gate workflow (`mcp-gate.yml`)')).toBe('the-gate-workflow-mcp-gateyml');
    expect(anchorsOf('# A\n## A\n```\n# not\n```\n').has('a-1')).toBe(true);
  });
});
