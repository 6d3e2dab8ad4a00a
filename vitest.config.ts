import { defineConfig } from 'vitest/config';

/**
 * Unit tests that run the built CLI or its launcher: the fast project leaves them out, so it needs
 * no build (the full project builds first, in its global setup).
 */
const NEEDS_BUILD = ['test/unit/launch.test.ts', 'test/unit/packed-yaml.test.ts'];

export default defineConfig({
  test: {
    // Integration tests start real servers; two cores, so keep parallelism modest.
    pool: 'forks',
    maxWorkers: 2,
    // Hang guards, not speed checks: the suite must pass beside a CPU-bound load of 8 processes,
    // where a test runs several times slower than on a quiet machine.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // `vitest run <file>` runs the file once, in full; `--project fast` picks the other.
    project: 'full',
    projects: [
      {
        extends: true,
        test: {
          // `npm run test:fast`: the unit tests, without the property runs and corpus sweeps
          // (test/helpers/property.ts), and without a build.
          name: 'fast',
          include: ['test/unit/**/*.test.ts'],
          exclude: NEEDS_BUILD,
          env: { MCPGATE_PROPERTY_RUNS: '0' },
          isolate: false,
          globalSetup: ['test/temp-dir-setup.ts'],
        },
      },
      {
        extends: true,
        // Everything: `npm test` and `.ci/run`. MCPGATE_PROPERTY_RUNS scales the property runs.
        test: { name: 'full', include: ['test/**/*.test.ts'], globalSetup: ['test/temp-dir-setup.ts', 'test/global-setup.ts'] },
      },
    ],
  },
});
