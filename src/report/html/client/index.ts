/// <reference lib="dom" />
// The page script's entry: `npm run build` bundles it, with the modules it imports, into one
// browser script (scripts/pack.mjs, dist/generated/html-client.js), which src/report/html/script.ts embeds.
import { main } from './main.js';

main();
