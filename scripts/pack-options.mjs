import { fileURLToPath } from 'node:url';

// How mcp-gate is packed into one file (esbuild): one CommonJS file per entry, which src/launch.ts
// runs as a vm.Script with a V8 code cache. Used by scripts/pack.mjs for the CLI, and by the bench
// for its SDK floor (bench/measure.mjs), so that it is loaded exactly as the gate is.
export const PACK_OPTIONS = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // Whitespace and syntax only: identifiers keep their names, so stack traces and error class
  // names still read as in the source.
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: 'linked',
  // The launcher runs a packed file as a vm.Script, where import() has no loader once the code comes
  // from the cache (Node 20): the one a dependency makes (node:crypto) becomes require().
  supported: { 'dynamic-import': false },
  // The sources find package files from their own URL (src/base/package-root.ts); in a packed CommonJS
  // file that is the packed file.
  define: { 'import.meta.url': '__mcpGateBundleUrl' },
  // "use strict" first: the sources were ES modules, always strict, and esbuild's own directive
  // would come after the banner, where it does nothing.
  banner: { js: "'use strict';\nconst __mcpGateBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  // ES builds first: a UMD build (jsonc-parser's) loads its parts with a require() esbuild cannot follow.
  mainFields: ['module', 'main'],
  // The SDK client's platform shim, swapped for ours (scripts/sdk-shims.mjs): the SDK's own brings its
  // copy of ajv, which the gate never uses. The yaml package's `process`, swapped for one without its
  // debugging switches (scripts/yaml-process.mjs), which it reads once a token. Measured in bench/README.md.
  plugins: [
    {
      name: 'sdk-shims',
      setup(build) {
        build.onResolve({ filter: /^@modelcontextprotocol\/client\/_shims$/ }, () => ({
          path: fileURLToPath(new URL('./sdk-shims.mjs', import.meta.url)),
        }));
        build.onResolve({ filter: /^(node:)?process$/ }, ({ importer }) =>
          /[\\/]node_modules[\\/]yaml[\\/]/.test(importer)
            ? { path: fileURLToPath(new URL('./yaml-process.mjs', import.meta.url)) }
            : undefined,
        );
      },
    },
  ],
  logLevel: 'warning', // errors reject the promise, which fails the build
};
