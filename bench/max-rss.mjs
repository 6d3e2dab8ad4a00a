// Preloaded (`node --import`) into the gate and the floor alike: on exit, writes the process's peak
// resident set size (process.resourceUsage().maxRSS, in KiB) to $BENCH_MAX_RSS_FILE.
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_MAX_RSS_FILE;
if (file) process.once('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
