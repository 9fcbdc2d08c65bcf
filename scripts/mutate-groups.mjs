#!/usr/bin/env node
// Mutation groups for the policy folders: `npm run mutate:<group>` runs one folder's
// mutants against the suites that cover it (in-process suites only: a mutant in the test
// process never reaches a child `hookbox`), then stores its score in
// tests/mutation/scores.json; `npm run mutate:check` fails when a stored score is below
// its group's target, or when the ledger's table of stored scores (tests/mutation/ledger.md)
// disagrees with scores.json. The groups and their survivors: tests/mutation/ledger.md.
//
//   node scripts/mutate-groups.mjs report                  # run one group, store its score
//   node scripts/mutate-groups.mjs agents                  # every agents-* group (or bridges-*), one after another
//   node scripts/mutate-groups.mjs report --no-store       # run it, print the score only
//   node scripts/mutate-groups.mjs --check                 # stored scores against the targets
//   node scripts/mutate-groups.mjs report --concurrency 2  # two test runners (default 1: shared machine)
//   node scripts/mutate-groups.mjs report --nice 0         # at normal priority (default 19, the lowest)
//   node scripts/mutate-groups.mjs report --force          # every mutant again, not only those whose code or tests changed
//
// At the lowest CPU priority unless told (--nice), without the type checker (a mutant that does not
// type-check fails its suites anyway, only more slowly).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import picomatch from 'picomatch';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SCORES = join(root, 'tests', 'mutation', 'scores.json');
const LEDGER = join(root, 'tests', 'mutation', 'ledger.md');

/**
 * A folder measured in groups (`bridges-*`, `agents-*`): `npm run mutate:<family>` runs them one
 * after another. Each agents group also runs the suites that read every agent's tables and setup
 * (the conformance suite, the README tables, the golden bridge tables, detection and the
 * portable setup), all fast and in-process.
 */
function familyGroups(family, groups) {
  const shared = family === 'agents' ? ['tests/conformance/agent-bridges.spec.ts', 'tests/unit/agent-readme-tables.spec.ts', 'tests/golden/bridges.spec.ts', 'tests/unit/setup-detect.spec.ts', 'tests/unit/setup-portable.spec.ts'] : [];
  return Object.fromEntries(Object.entries(groups).map(([name, group]) => [name, { ...group, tests: [...new Set([...group.tests, ...shared])], target: 80 }]));
}

/** Each policy folder, the in-process suites that cover it, and the score it must keep. */
export const GROUPS = {
  serve: {
    mutate: ['host/serve/**/*.ts', '!host/serve/index.ts'],
    tests: ['tests/integration/serve.spec.ts', 'tests/security/serve-door.spec.ts', 'tests/unit/serve-*.spec.ts', 'tests/integration/serve-replaced-log.spec.ts'],
    target: 85,
  },
  config: {
    mutate: ['host/config/**/*.ts', '!host/config/index.ts'],
    // The unit suites reach every line of host/config in-process. config-layers, hook-packages
    // and security/hook-package drive the CLI as a child process, which never sees a mutant:
    // they only made each of the group's static mutants run for minutes.
    tests: ['tests/unit/config-*.spec.ts', 'tests/unit/path-under.spec.ts'],
    target: 85,
  },
  // host/bridges in three groups, each against its own suites. As one group (2,179 mutants) its
  // 192 static mutants (module-level tables: protocol fields, unsupported events, interpreters)
  // each ran all 24 of its suites, a minute a run at load 10: Stryker estimated over 3 hours.
  // Not the importers' compat suites (tests/compat/import-*): they drive the CLI in a child
  // process, which never sees a mutant.
  ...familyGroups('bridges', {
    // The pure mapper: a seam call → the hook's stdin JSON, its exit code / stdout / stderr → a
    // decision or fault, the wasm codec; and the transcript and session notices hooks read.
    'bridges-protocol': {
      mutate: ['host/bridges/protocol*.ts', 'host/bridges/wasm-codec.ts', 'host/bridges/claude-transcript.ts', 'host/bridges/hook-session.ts'],
      tests: ['tests/unit/bridges-protocol-*.spec.ts', 'tests/unit/bridges-wasm-codec.spec.ts', 'tests/unit/bridges-claude-transcript.spec.ts', 'tests/unit/bridges-hook-session.spec.ts', 'tests/golden/bridges.spec.ts', 'tests/conformance/agent-bridges.spec.ts'],
    },
    // The importers, matchers, permission rules, CLAUDE_ENV_FILE parsing and the program check.
    'bridges-import': {
      mutate: ['host/bridges/import-*.ts', 'host/bridges/matcher.ts', 'host/bridges/permission-*.ts', 'host/bridges/env-file.ts', 'host/bridges/program-check.ts'],
      tests: ['tests/unit/bridges-import*.spec.ts', 'tests/unit/bridges-matcher.spec.ts', 'tests/unit/bridges-permission-*.spec.ts', 'tests/unit/bridges-env-file.spec.ts', 'tests/unit/bridges-program-check.spec.ts'],
    },
    // Running a shell hook: real `sh` processes, their groups, timeouts and caps.
    'bridges-shell': {
      mutate: ['host/bridges/shell-hook.ts', 'host/bridges/run-command.ts'],
      tests: ['tests/unit/bridges-shell-hook.spec.ts', 'tests/unit/bridges-run-command.spec.ts', 'tests/unit/bridges-shell.spec.ts', 'tests/security/shell-hook-children.spec.ts'],
    },
  }),
  // host/agents by folder. Its tool and event tables are built when their modules load, so
  // their mutants are static (no test's coverage names them) and each runs every suite of its
  // group: one group over all of host/agents was 1,499 static mutants × 18 s. Each folder's
  // group runs only the fast in-process suites that reach it.
  ...familyGroups('agents', {
    'agents-shared': { mutate: ['host/agents/*.ts', '!host/agents/index.ts'], tests: ['tests/unit/agent-*.spec.ts', 'tests/unit/serve-decide.spec.ts'] },
    'agents-claude': { mutate: ['host/agents/claude-code/**/*.ts', 'host/agents/claude-format/**/*.ts'], tests: ['tests/unit/agent-claude-*.spec.ts', 'tests/unit/agent-setup-claude-code.spec.ts', 'tests/unit/agent-copilot.spec.ts', 'tests/unit/agent-qwen.spec.ts', 'tests/unit/agent-factory.spec.ts', 'tests/unit/agent-tool-maps.spec.ts'] },
    'agents-codex': { mutate: ['host/agents/codex/**/*.ts'], tests: ['tests/unit/agent-codex*.spec.ts', 'tests/unit/agent-setup-codex-gemini.spec.ts', 'tests/unit/agent-tool-maps.spec.ts', 'tests/unit/serve-decide.spec.ts'] },
    'agents-gemini': { mutate: ['host/agents/gemini/**/*.ts'], tests: ['tests/unit/agent-gemini*.spec.ts', 'tests/unit/agent-setup-codex-gemini.spec.ts', 'tests/unit/agent-tool-maps.spec.ts'] },
    'agents-copilot': { mutate: ['host/agents/copilot/**/*.ts', 'host/agents/qwen/**/*.ts', 'host/agents/factory/**/*.ts'], tests: ['tests/unit/agent-copilot*.spec.ts', 'tests/unit/agent-qwen*.spec.ts', 'tests/unit/agent-factory.spec.ts'] },
    'agents-plugins': { mutate: ['host/agents/opencode/**/*.ts', 'host/agents/kilo/**/*.ts', 'host/agents/pi/**/*.ts'], tests: ['tests/unit/agent-plugin*.spec.ts'] },
  }),
  loop: {
    mutate: ['host/loop/**/*.ts', '!host/loop/index.ts'],
    tests: [
      'tests/unit/loop-*.spec.ts',
      'tests/unit/seam-firing.spec.ts',
      'tests/unit/log-and-script.spec.ts',
      'tests/unit/prompter.spec.ts',
      'tests/security/ask-prompt.spec.ts',
      'tests/integration/interception.spec.ts',
      'tests/integration/replay.spec.ts',
    ],
    target: 80,
  },
  report: {
    // The browser suite drives chromium in a child process: it cannot see an in-process mutant.
    mutate: ['host/report/**/*.ts', '!host/report/index.ts'],
    tests: ['tests/unit/report-html.spec.ts', 'tests/unit/report-summary.spec.ts', 'tests/security/report-hostile-log.spec.ts', 'tests/golden/report.spec.ts'],
    target: 75,
  },
};

const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(name);
  return at < 0 ? undefined : args[at + 1];
};

function readScores() {
  return existsSync(SCORES) ? JSON.parse(readFileSync(SCORES, 'utf8')) : {};
}

/** Killed + timeout over killed + timeout + survived + no coverage (Stryker's score), over the group's own files. */
function scoreOf(name) {
  const group = GROUPS[name];
  const path = join(root, 'reports', 'mutation', `${name}.json`);
  if (!existsSync(path)) throw new Error(`no report for group ${name} (${relative(root, path)}): the run did not finish`);
  const report = JSON.parse(readFileSync(path, 'utf8'));
  const own = picomatch(group.mutate.filter((glob) => !glob.startsWith('!')), { ignore: group.mutate.filter((glob) => glob.startsWith('!')).map((glob) => glob.slice(1)) });
  const counts = { killed: 0, timeout: 0, survived: 0, noCoverage: 0 };
  const survivors = [];
  for (const [file, result] of Object.entries(report.files)) {
    const at = relative(root, join(root, file));
    if (!own(at)) continue;
    for (const mutant of result.mutants) {
      if (mutant.status === 'Killed') counts.killed++;
      else if (mutant.status === 'Timeout') counts.timeout++;
      else if (mutant.status === 'Survived' || mutant.status === 'NoCoverage') {
        counts[mutant.status === 'Survived' ? 'survived' : 'noCoverage']++;
        survivors.push(`${at}:${mutant.location.start.line} ${mutant.mutatorName} (${mutant.status})`);
      }
    }
  }
  const valid = counts.killed + counts.timeout + counts.survived + counts.noCoverage;
  return { score: valid === 0 ? null : Math.round((10_000 * (counts.killed + counts.timeout)) / valid) / 100, ...counts, survivors };
}

/** `1,327` → 1327. */
const count = (text) => Number(text.replaceAll(',', ''));

/**
 * Where the ledger's "Stored so far" table disagrees with scores.json: a row per stored group,
 * with its killed / timed out / survived / not covered counts, its score to one decimal and its
 * target as stored. The ledger is written by hand after a run; this keeps it from going stale.
 */
function ledgerMismatches(scores) {
  const text = readFileSync(LEDGER, 'utf8');
  const rows = new Map();
  for (const line of text.split('\n')) {
    const row = /^\| `([a-z-]+)` \| [\d,]+ \| ([\d.]+) % \| ([\d,]+) \/ ([\d,]+) \/ ([\d,]+) \/ ([\d,]+) \| [^|]+\| (\d+) % /.exec(line);
    if (row !== null) rows.set(row[1], row);
  }
  const problems = [];
  for (const [name, stored] of Object.entries(scores)) {
    const row = rows.get(name);
    if (row === undefined) {
      problems.push(`${name}: stored in scores.json, but no row in the ledger's "Stored so far" table`);
      continue;
    }
    const want = [(Math.round(stored.score * 10) / 10).toFixed(1), stored.killed, stored.timeout, stored.survived, stored.noCoverage, GROUPS[name]?.target ?? stored.target];
    const have = [row[2], count(row[3]), count(row[4]), count(row[5]), count(row[6]), Number(row[7])];
    if (Number(have[0]) !== Number(want[0]) || have.slice(1).some((value, at) => value !== want[at + 1])) {
      problems.push(`${name}: the ledger says ${have[0]} % (${have.slice(1, 5).join(' / ')}; target ${have[5]} %), scores.json ${want[0]} % (${want.slice(1, 5).join(' / ')}; target ${want[5]} %)`);
    }
  }
  for (const name of rows.keys()) if (!Object.hasOwn(scores, name)) problems.push(`${name}: a row in the ledger's table, but no score stored in scores.json`);
  return problems;
}

if (args.includes('--check')) {
  const scores = readScores();
  let failed = false;
  for (const problem of ledgerMismatches(scores)) {
    failed = true;
    console.log(`${relative(root, LEDGER)}: ${problem}`);
  }
  for (const [name, group] of Object.entries(GROUPS)) {
    const stored = scores[name];
    if (stored === undefined) {
      console.log(`${name.padEnd(16)} not measured yet (target ${group.target} %): run npm run mutate:${name}`);
    } else if (stored.score < group.target) {
      failed = true;
      console.log(`${name.padEnd(16)} ${stored.score} % is below its target ${group.target} % (measured ${stored.measuredAt})`);
    } else {
      console.log(`${name.padEnd(16)} ${stored.score} % (target ${group.target} %, measured ${stored.measuredAt})`);
    }
  }
  process.exit(failed ? 1 : 0);
}

const values = new Set([option('--concurrency'), option('--nice')]);
const asked = args.filter((arg) => !arg.startsWith('--') && !values.has(arg));
// `bridges` and `agents` are every `bridges-*` or `agents-*` group, one after another.
const FAMILIES = new Set(['bridges', 'agents']);
const names = asked.flatMap((name) => (FAMILIES.has(name) ? Object.keys(GROUPS).filter((group) => group.startsWith(`${name}-`)) : [name]));
const unknown = names.filter((name) => !Object.hasOwn(GROUPS, name));
if (names.length === 0 || unknown.length > 0) {
  console.error(`usage: mutate-groups.mjs <group>... | --check (groups: ${Object.keys(GROUPS).join(', ')}; bridges, agents = every bridges-* or agents-* group)${unknown.length > 0 ? `\nunknown group: ${unknown.join(', ')}` : ''}`);
  process.exit(2);
}
for (const name of names) runGroup(name);

/** Runs one group's mutants, prints its score and survivors, and stores the score unless --no-store. */
function runGroup(name) {
  const group = GROUPS[name];
  const started = Date.now();
  console.log(`== ${name}: ${group.mutate.join(', ')}\n   suites: ${group.tests.join(', ')}`);
  const run = spawnSync(
    'nice',
    [
      '-n', option('--nice') ?? '19',
      process.execPath, join(root, 'node_modules', '@stryker-mutator', 'core', 'bin', 'stryker.js'), 'run',
      '--concurrency', option('--concurrency') ?? '1',
      '--checkers', '',
      '--mutate', group.mutate.join(','),
      '--incrementalFile', `reports/stryker-${name}.json`,
      '--tempDirName', `.stryker-tmp/${name}`,
      '--reporters', 'clear-text,progress,json,html',
      // An incremental run reuses a static mutant's result (a module-level table or constant,
      // which no test's coverage names) even when a new test would kill it.
      ...(args.includes('--force') ? ['--force'] : []),
    ],
    { cwd: root, stdio: 'inherit', env: { ...process.env, HOOKBOX_MUTATE_TESTS: group.tests.join(','), HOOKBOX_MUTATE_REPORT: name } },
  );
  const minutes = Math.round((Date.now() - started) / 6_000) / 10;
  console.log(`== ${name}: exit ${run.status}, ${minutes} min`);
  if (run.status !== 0) process.exit(run.status ?? 1);
  const { survivors, ...result } = scoreOf(name);
  console.log(`${name}: ${result.score} % (${result.killed} killed, ${result.timeout} timed out, ${result.survived} survived, ${result.noCoverage} not covered; target ${group.target} %)`);
  for (const line of survivors) console.log(`  survived: ${line}`);
  if (!args.includes('--no-store')) {
    const scores = readScores();
    scores[name] = { ...result, target: group.target, minutes, measuredAt: new Date().toISOString().slice(0, 10), concurrency: Number(option('--concurrency') ?? 1) };
    writeFileSync(SCORES, `${JSON.stringify(scores, null, 2)}\n`);
    console.log(`stored in ${relative(root, SCORES)}`);
  }
}
