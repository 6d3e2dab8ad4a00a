import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Integration tests start real servers; two cores, so keep parallelism modest.
    pool: 'forks',
    maxWorkers: 2,
    // Hang guards, not speed checks: the suite must pass beside a CPU-bound load of 8 processes
    // (issue 31), where a test runs several times slower than on a quiet machine.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    globalSetup: ['test/global-setup.ts'],
  },
});
