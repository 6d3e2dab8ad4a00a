// Preloaded (`node --import`) into the gate and both floors alike: on exit, writes the process's peak
// resident set size (process.resourceUsage().maxRSS, KiB) and the CPU time it used (user + system,
// ms; its own threads, not the servers) to $BENCH_EXIT_STATS_FILE as JSON.
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_EXIT_STATS_FILE;
if (file) {
  process.once('exit', () => {
    const { maxRSS, userCPUTime, systemCPUTime } = process.resourceUsage();
    writeFileSync(file, JSON.stringify({ maxRssKiB: maxRSS, cpuMs: (userCPUTime + systemCPUTime) / 1000 }));
  });
}
