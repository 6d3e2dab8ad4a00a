#!/usr/bin/env node
// Part of `npm run build`, after tsc: packs mcp-gate with its dependencies into one CommonJS file,
// dist/packed/mcp-gate.cjs (from src/cli.ts: the CLI, and the GitHub Action's entry point), which
// the launchers in bin/ run; and the HTML report's page script (src/report/html/client) into one
// browser script. The last build step records a V8 code cache beside the packed CLI
// (scripts/record-code-cache.mjs, src/launch.ts).
//
// Why: loading ~400 small ES and CommonJS modules (the SDK, zod, ajv, ours) one file at a time,
// then compiling them, cost the gate more CPU than the rest of a small run, on machines where two
// servers are booting at the same moment; without the cache, the example's run measured 1.19x the
// floor instead of 1.06x (bench/README.md). Node 20 caches compiled code only for scripts, not for
// ES modules, so the packed file is CommonJS. What only some commands need (the pipeline, the SDK,
// the HTTP transports, the reporters, the action) is still initialised only when first imported.
import { createRequire } from 'node:module';
import { build } from 'esbuild';
import { isAscii } from 'node:buffer';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CLIENT_BUILD, CLIENT_SCRIPT } from '../dist/report/html/script.js';
import { PACK_OPTIONS } from './pack-options.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = `${root}dist/packed`;
rmSync(outdir, { recursive: true, force: true });

// The validators compiled to dist/generated (scripts/compile-schemas.mjs), bundled: src/base/built-validators.ts
// becomes a module that requires each one, so they load from the packed file's code cache. esbuild
// runs a bundled CommonJS file when it is first required, so each costs nothing until it is used.
const generated = `${root}dist/generated`;
const builtValidators = {
  name: 'built-validators',
  setup(build) {
    build.onResolve({ filter: /[\\/]built-validators\.js$/ }, ({ importer }) =>
      /[\\/]dist[\\/]base[\\/]validators\.js$/.test(importer) ? { path: 'built-validators', namespace: 'mcp-gate' } : undefined,
    );
    build.onLoad({ filter: /^built-validators$/, namespace: 'mcp-gate' }, () => {
      const names = readdirSync(generated).filter((file) => file.endsWith('.cjs'));
      if (!names.length) throw new Error(`no validators in ${generated}: run scripts/compile-schemas.mjs first`);
      const entries = names.map((file) => `${JSON.stringify(file.slice(0, -4))}: () => require(${JSON.stringify(`./${file}`)})`);
      return { contents: `exports.BUILT_VALIDATORS = { ${entries.join(', ')} };`, resolveDir: generated, loader: 'js' };
    });
  },
};

await build({
  ...PACK_OPTIONS,
  plugins: [...PACK_OPTIONS.plugins, builtValidators],
  absWorkingDir: root,
  outdir,
  outExtension: { '.js': '.cjs' },
  entryPoints: { 'mcp-gate': 'dist/cli.js' },
});

// refa, beside the packed gate, which loads it the first time two patterns are compared
// (src/witness/refa.ts): most runs compare none, and it would be a third of the packed file.
await build({
  entryPoints: [createRequire(import.meta.url).resolve('refa')],
  outfile: `${outdir}/refa.cjs`,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minifyWhitespace: true,
  legalComments: 'inline',
  logLevel: 'warning',
});

// The launcher as CommonJS, which bin/ requires: an ES module entry costs every run Node's ES module loader.
await build({
  entryPoints: [`${root}dist/launch.js`],
  outfile: `${root}dist/launch.cjs`,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
});

// The launcher reads an ASCII packed file without decoding UTF-8 (src/launch.ts). esbuild escapes
// strings, but not a regular expression's literal characters: those must be written as \uXXXX.
const packed = readFileSync(`${outdir}/mcp-gate.cjs`);
if (!isAscii(packed)) {
  const lines = packed.toString('utf8').split('\n');
  const at = lines.findIndex((line) => [...line].some((c) => c.codePointAt(0) > 0x7f));
  const char = [...lines[at]].find((c) => c.codePointAt(0) > 0x7f);
  const near = lines[at].slice(Math.max(0, lines[at].indexOf(char) - 60), lines[at].indexOf(char) + 20);
  throw new Error(
    `dist/packed/mcp-gate.cjs is not ASCII: line ${at + 1} has U+${char.codePointAt(0).toString(16).toUpperCase().padStart(4, '0')} in \`${near}\`. Write it as \\u${char.codePointAt(0).toString(16).padStart(4, '0')} in the source (a regular expression keeps its characters as written).`,
  );
}

const page = await build(CLIENT_BUILD);
mkdirSync(`${root}dist/generated`, { recursive: true });
writeFileSync(`${root}${CLIENT_SCRIPT}`, page.outputFiles[0].text);
