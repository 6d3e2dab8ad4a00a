/** The README's demo scenarios (scripts/demo.mjs), typed for the test that holds them to the table. */
export declare const SCENARIOS: { candidate: string; title: string; expect: 0 | 1 | 2 }[];
