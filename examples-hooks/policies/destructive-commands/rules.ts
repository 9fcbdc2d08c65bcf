/**
 * destructive-commands' pure policy: cloud and database commands that destroy
 * what is not in the repository — infrastructure (`terraform destroy`),
 * cloud resources (`aws s3 rm --recursive`, `gcloud … delete`, `az … delete`),
 * Kubernetes objects (`kubectl delete`, `helm uninstall`) and SQL that drops
 * or empties tables, sent through a database client (`psql -c`, heredocs).
 * Every program a shell command runs is read through guard-bash's parser
 * (`sudo`, `env`, `bash -c`, `$(…)`, heredocs). Reasons start
 * `destructive-commands: <rule>:`.
 */
import { commandFindings } from '../shared/command-guard/check.ts';
import { stringList, oneOf } from '../shared/config.ts';
import { SHELL_TOOLS, shellCommand, walkShell, type Invocation } from '../shared/shell-walk.ts';

/** The fixed command rules this policy judges with (`shared/command-guard/`, the guard-bash example's too). */
const MACHINE_RULES = ['recursive-delete', 'chmod-777', 'block-device-write', 'fork-bomb', 'obfuscated-script'] as const;
type MachineRule = (typeof MACHINE_RULES)[number];

export const RULES = ['infrastructure', 'cloud', 'kubernetes', 'database', ...MACHINE_RULES, 'unreadable', 'config-error'] as const;
export type Rule = (typeof RULES)[number];

/** The config as the host validated it (defaults filled in): `host/catalog/destructive-commands.ts`. */
export interface DestructiveConfig {
  readonly action: 'deny' | 'ask';
  /** Rules left out. */
  readonly allow: readonly Rule[];
}

export type Verdict = { readonly action: 'allow' } | { readonly action: 'deny' | 'ask'; readonly rule: Rule; readonly reason: string };

export function parseConfig(value: unknown): DestructiveConfig | { error: string } {
  const config = value as Record<string, unknown>;
  const action = oneOf(config.action, ['deny', 'ask'] as const);
  if (action === undefined) return { error: 'action: expected deny or ask' };
  const allow = stringList(config.allow);
  if (allow === undefined || !allow.every((rule) => (RULES as readonly string[]).includes(rule))) return { error: 'allow: expected rule names' };
  return { action, allow: allow as Rule[] };
}

/** Global options of these CLIs that take the next word as their value (`aws --profile prod s3 rm`). */
const VALUE_OPTIONS = new Set(['--profile', '--region', '--output', '--endpoint-url', '--project', '--subscription', '--namespace', '-n', '--context', '--kubeconfig', '--chdir', '--stack', '-s', '--cwd', '--zone', '--account', '--configuration']);

/** The words of an invocation that are neither options (`-x`, `--x=…`) nor a global option's value. */
function words(inv: Invocation): string[] {
  const out: string[] = [];
  for (let i = 0; i < inv.args.length; i++) {
    const arg = inv.args[i] as string;
    if (VALUE_OPTIONS.has(arg)) i++;
    else if (!arg.startsWith('-')) out.push(arg);
  }
  return out;
}

const IAC = new Set(['terraform', 'tofu', 'terragrunt', 'pulumi', 'cdk', 'cdktf', 'serverless', 'sls']);

function infrastructure(inv: Invocation): string | undefined {
  if (!IAC.has(inv.name)) return undefined;
  const verbs = words(inv);
  if (verbs.includes('destroy') || (verbs[0] === 'apply' && inv.args.includes('-destroy')) || (inv.name === 'pulumi' && verbs[0] === 'stack' && verbs[1] === 'rm')) return 'destroys infrastructure';
  if (inv.name === 'serverless' || inv.name === 'sls') return verbs[0] === 'remove' ? 'removes a deployed service' : undefined;
  return undefined;
}

/** A cloud CLI verb that deletes: `delete`, `delete-*`, `rm`, `rb`, `terminate-*`, `remove`, `purge`. */
const DELETING = /^(?:delete|delete-.+|.+-delete|terminate-.+|remove|rm|rb|purge|destroy|deregister-.+)$/;

function cloud(inv: Invocation): string | undefined {
  const verbs = words(inv);
  if (inv.name === 'aws') {
    if (verbs[0] === 's3' && (verbs[1] === 'rm' || verbs[1] === 'rb')) return verbs[1] === 'rb' || inv.args.includes('--recursive') ? `aws s3 ${verbs[1]} deletes a bucket's objects` : undefined;
    if (verbs[0] === 's3api' && verbs[1] !== undefined && /^delete-/.test(verbs[1])) return `aws s3api ${verbs[1]}`;
    const verb = verbs[1];
    return verb !== undefined && DELETING.test(verb) ? `aws ${verbs[0]} ${verb} deletes cloud resources` : undefined;
  }
  if (inv.name === 'gcloud' || inv.name === 'az' || inv.name === 'doctl' || inv.name === 'fly' || inv.name === 'flyctl' || inv.name === 'heroku') {
    const verb = verbs.find((word) => DELETING.test(word) || /:(?:destroy|delete)$/.test(word));
    return verb === undefined ? undefined : `${inv.name} ${verbs.slice(0, verbs.indexOf(verb) + 1).join(' ')} deletes cloud resources`;
  }
  if (inv.name === 'gsutil') return verbs[0] === 'rb' || (verbs[0] === 'rm' && inv.args.some((a) => /^-[a-zA-Z]*r/.test(a))) ? `gsutil ${verbs[0]} deletes a bucket's objects` : undefined;
  return undefined;
}

function kubernetes(inv: Invocation): string | undefined {
  const verbs = words(inv);
  if (inv.name === 'kubectl' || inv.name === 'oc') return verbs[0] === 'delete' || (verbs[0] === 'drain') ? `${inv.name} ${verbs[0]} ${verbs.slice(1, 3).join(' ')}`.trim() : undefined;
  if (inv.name === 'helm') return verbs[0] === 'uninstall' || verbs[0] === 'delete' || verbs[0] === 'del' ? `helm ${verbs[0]} removes a release` : undefined;
  return undefined;
}

const SQL_CLIENTS = new Set(['psql', 'mysql', 'mariadb', 'sqlite3', 'sqlcmd', 'clickhouse-client', 'cockroach', 'duckdb', 'mongosh', 'mongo', 'redis-cli']);
/** Options of the SQL clients that carry a statement. */
const STATEMENT_OPTIONS = new Set(['-c', '--command', '-e', '--execute', '-q', '-Q', '--query', '--eval', 'sql']);
const DESTRUCTIVE_SQL = /\b(?:drop\s+(?:table|database|schema|index|view|collection)|truncate(?:\s+table)?\s+\w|delete\s+from\s+[\w."]+\s*(?:;|$)|dropDatabase\s*\(|\.drop\s*\(|flushall|flushdb)/im;

function database(inv: Invocation): string | undefined {
  if (!SQL_CLIENTS.has(inv.name)) return undefined;
  const texts: string[] = [...inv.stdinTexts];
  for (let i = 0; i < inv.args.length; i++) {
    const arg = inv.args[i] as string;
    const eq = /^(--command|--execute|--query|--eval)=(.*)$/s.exec(arg);
    if (eq !== null) texts.push(eq[2] as string);
    else if (STATEMENT_OPTIONS.has(arg) && inv.args[i + 1] !== undefined) texts.push(inv.args[++i] as string);
    else if (/^-[ceqQ].+/s.test(arg)) texts.push(arg.slice(2));
    else if (inv.name === 'sqlite3' || inv.name === 'duckdb' || inv.name === 'redis-cli' || inv.name === 'cockroach') texts.push(arg);
  }
  const hit = texts.map((text) => DESTRUCTIVE_SQL.exec(text)).find((m) => m !== null);
  return hit === undefined || hit === null ? undefined : `${inv.name} runs ${JSON.stringify(hit[0].trim().replace(/\s+/g, ' ').slice(0, 60))}`;
}

const CHECKS: readonly [Rule, (inv: Invocation) => string | undefined][] = [
  ['infrastructure', infrastructure],
  ['cloud', cloud],
  ['kubernetes', kubernetes],
  ['database', database],
];

/**
 * The first finding of the fixed command rules this policy has and the config
 * leaves in, or `undefined`. `cwd` is the session's: the workspace root a
 * recursive delete of `.` or `*` would wipe.
 */
function machineFinding(command: string, cwd: string, config: DestructiveConfig): { rule: MachineRule; what: string } | undefined {
  for (const finding of commandFindings(command, { cwd })) {
    const rule = finding.rule as MachineRule;
    if (finding.action === 'deny' && MACHINE_RULES.includes(rule) && !config.allow.includes(rule)) return { rule, what: finding.why };
  }
  return undefined;
}

/**
 * Judges one pre-tool call: the first destructive program the command runs
 * decides (cloud, infrastructure, Kubernetes, database), then the fixed
 * command rules (`rm -rf /`, `chmod -R 777`, `dd of=/dev/sda`, fork bombs,
 * `base64 -d | sh`).
 */
export function judgeCall(toolName: string, args: Record<string, unknown>, config: DestructiveConfig, cwd: string): Verdict {
  if (!SHELL_TOOLS.has(toolName)) return { action: 'allow' };
  const command = shellCommand(args);
  if (command === undefined) return { action: 'allow' };
  let found: { rule: Rule; what: string } | undefined;
  const unreadable = walkShell(command, (_command, inv) => {
    if (inv === undefined || found !== undefined) return;
    for (const [rule, check] of CHECKS) {
      if (config.allow.includes(rule)) continue;
      const what = check(inv);
      if (what !== undefined) {
        found = { rule, what };
        return;
      }
    }
  });
  found ??= machineFinding(command, cwd, config);
  if (found !== undefined) {
    return { action: config.action, rule: found.rule, reason: `destructive-commands: ${found.rule}: ${toolName}: ${found.what}; run it yourself if it is meant` };
  }
  if (unreadable) return { action: 'deny', rule: 'unreadable', reason: `destructive-commands: unreadable: ${toolName}: the command nests scripts too deeply to check` };
  return { action: 'allow' };
}
