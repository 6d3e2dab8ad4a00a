// Renders bench results as markdown tables and the goal table, and puts them in bench/README.md.
const STAGES = ['connect', 'discover', 'diff', 'cases', 'audit', 'decide', 'report'];
const ms = (x) => `${x} ms`;
const byId = (results, id) => results.scenarios.find((s) => s.id === id);
/** The middle half of the runs' own ratios, when the results have them (since 2026-11-29). */
const spread = (s) => (s.ratioRange ? `, middle half of runs ${s.ratioRange[0]}x to ${s.ratioRange[1]}x` : '');

/** Each speed and size goal (bench/README.md, "Goals"): the figure, the bar, and whether this run met it. */
export function goalRows(results) {
  const { t5000 } = results.inProcess;
  const cold = results.coldStart;
  const ratio = (id, bar) => {
    const s = byId(results, id);
    return {
      goal: `gate ÷ floor, ${s.label}`,
      value: `${s.ratio}x (SDK floor ${s.sdkFloorRatio}x${spread(s)})`,
      bar: `≤ ${bar}x`,
      pass: s.ratio <= bar,
    };
  };
  return [
    ratio('example', 1.15),
    ratio('published', 1.15),
    ratio('t1000', 1.25),
    ratio('c1000', 1.25),
    { goal: 'diff of 5,000 tools against 5,000 (in process)', value: ms(t5000.diffMs), bar: '< 150 ms', pass: t5000.diffMs < 150 },
    { goal: 'audit of 5,000 tools (in process, one contract)', value: ms(t5000.auditOneMs), bar: '< 150 ms', pass: t5000.auditOneMs < 150 },
    {
      goal: "scaling T = 1,000 -> 5,000: the gate's overhead over the floor",
      value: `${results.scaling}x`,
      bar: '≤ 5.5x',
      pass: results.scaling <= 5.5,
    },
    {
      goal: 'peak RSS of the gate at T = 5,000',
      value: `${byId(results, 't5000').gateRssMiB} MiB`,
      bar: '< 200 MB',
      pass: byId(results, 't5000').gateRssMiB * 1.048576 < 200,
    },
    { goal: '`mcp-gate --version` cold start ÷ `node -e 0`', value: `${cold.versionRatio}x`, bar: '< 2x', pass: cold.versionRatio < 2 },
  ];
}

const table = (head, rows) =>
  [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');

export function renderTables(results) {
  const { t1000, t5000 } = results.inProcess;
  const cold = results.coldStart;
  const goals = table(
    ['goal', 'measured', 'bar', ''],
    results.goals.map((g) => [g.goal, g.value, g.bar, g.pass ? 'pass' : '**FAIL**']),
  );
  const scenarios = table(
    [
      'scenario',
      'runs',
      'gate',
      'floor',
      'gate ÷ floor',
      'SDK floor ÷ floor',
      'gate CPU',
      'floor CPU',
      'SDK floor CPU',
      'gate peak RSS',
      'floor peak RSS',
      'verdict',
    ],
    results.scenarios.map((s) => [
      s.label,
      s.runs,
      ms(s.gateMs),
      ms(s.floorMs),
      `**${s.ratio}x**`,
      `${s.sdkFloorRatio}x`,
      ms(s.gateCpuMs),
      ms(s.floorCpuMs),
      ms(s.sdkFloorCpuMs),
      `${s.gateRssMiB} MiB`,
      `${s.floorRssMiB} MiB`,
      s.verdict,
    ]),
  );
  const stages = table(
    ['scenario', ...STAGES, 'in runGate', 'outside (boot, config, exit)'],
    results.scenarios.map((s) => [
      s.label,
      ...STAGES.map((k) => s.stages[k]),
      s.inGateMs,
      Math.round(s.gateMs - s.inGateMs - s.stages.report),
    ]),
  );
  // Most of a floor run is its servers starting, which no client can shorten. What a ratio goal
  // leaves the gate is the room after that: goal × floor, less when the floor's initialize was
  // answered. Each figure is a difference of medians.
  const after = table(
    [
      'scenario',
      'initialize answered (floor)',
      'floor after',
      'SDK floor after (its own initialize)',
      "gate after (the floor's initialize)",
      "room at the goal (goal × floor − the floor's initialize)",
    ],
    results.scenarios
      .filter((s) => s.floorReadyMs !== undefined)
      .map((s) => [
        s.label,
        ms(s.floorReadyMs),
        ms(s.floorMs - s.floorReadyMs),
        ms(s.sdkFloorMs - s.sdkFloorReadyMs),
        ms(s.gateMs - s.floorReadyMs),
        s.goal ? `${ms(Math.round(s.goal * s.floorMs - s.floorReadyMs))} (${s.goal}x)` : '',
      ]),
  );
  const inProcess = table(
    ['figure', 'value', 'note'],
    [
      ['diff, 1,000 vs 1,000 tools (5% drifted)', ms(t1000.diffMs), `${t1000.changes} changes`],
      ['diff, 5,000 vs 5,000 tools (5% drifted)', ms(t5000.diffMs), `${t5000.changes} changes`],
      ['diff scaling, 1,000 -> 5,000 tools', `${results.inProcess.diffScaling}x`, 'linear would be 5x'],
      ['audit, 1,000 tools (one contract)', ms(t1000.auditOneMs), ''],
      ['audit, 5,000 tools (one contract)', ms(t5000.auditOneMs), ''],
      ['audit, 5,000 + 5,000 tools (both sides, as in the gate)', ms(t5000.auditMs), 'unchanged tools are checked once'],
      ['normalise 5,000 raw tools into a contract', ms(t5000.normaliseMs), 'one side, in the discover stage'],
      ['`mcp-gate --version` vs `node -e 0`', `${cold.versionRatio}x`, `${cold.versionMs} ms vs ${cold.nodeMs} ms`],
      ['`mcp-gate validate` (example) vs `node -e 0`', `${cold.validateRatio}x`, ms(cold.validateMs)],
    ],
  );
  return [
    `Measured ${results.date} on ${results.machine} (load average ${results.loadAverage.join(', ')} at the end).`,
    `Scenario runs per figure: ${Object.entries(results.runs.scenarios)
      .map(([id, n]) => `${id} ${n}`)
      .join(', ')}; in-process figures and cold start: medians of ${results.runs.inProcess}.`,
    '',
    '### Goals',
    '',
    goals,
    '',
    '### Gate versus floor',
    '',
    scenarios,
    '',
    '### After the servers are up (differences of medians)',
    '',
    after,
    '',
    "### Where the gate's time goes (medians, ms, from the reports' `timing.stages`)",
    '',
    stages,
    '',
    '### In process and cold start',
    '',
    inProcess,
  ].join('\n');
}

export function renderReadme(readme, results) {
  const tables = renderTables(results);
  return {
    tables,
    readme: readme.replace(/<!-- bench:start -->[\s\S]*<!-- bench:end -->/, `<!-- bench:start -->\n${tables}\n<!-- bench:end -->`),
  };
}
