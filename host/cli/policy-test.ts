/**
 * `hookbox test`: table-driven tests of a configured policy set. Each case is
 * dispatched through the real bus, with the real sandboxed hooks loaded from
 * the real layered config (organisation › user › the file's `config` as the
 * project layer), and the decision the seam ends with is compared with the
 * case's expectation. Catalog policies name the rule that decided in their
 * reasons (`<policy>: <rule>: …`), which gives the coverage summary.
 */
import path from 'node:path';
import * as z from 'zod';
import { AGENT_NAMES, agentBridge } from '../agents/registry.ts';
import { CATALOG, type CatalogPolicy } from '../catalog/index.ts';
import { loadLayeredConfig } from '../config/index.ts';
import { ConfigError } from '../errors.ts';
import { type HookInvocation, SeamBus } from '../events/index.ts';
import { readJsonFile } from '../json/index.ts';
import { SEAM_IDS, type SeamId, type SessionInfo, seamDefinition } from '../seams/index.ts';
import { printable } from '../text/index.ts';
import { openHookSet } from './hook-set.ts';

const SeamIdSchema = z.enum(SEAM_IDS as [SeamId, ...SeamId[]]);

const RegExpSourceSchema = z.string().refine((source) => {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}, 'not a valid regular expression');

/**
 * One case: a seam and its payload — or an agent and one of its hook events in the agent's own
 * format, read through that agent's bridge into the seam and payload — and the decision the
 * seam must end with.
 */
export const PolicyCaseSchema = z.strictObject({
  name: z.string().min(1),
  seam: SeamIdSchema.optional(),
  /** The seam's payload; on the tool seams `toolCallId` may be left out. */
  payload: z.record(z.string(), z.unknown()).optional(),
  /** The agent whose hook JSON `event` is (`claude-code`, `codex`, …). */
  agent: z.enum(AGENT_NAMES).optional(),
  /** The agent's own hook event (Claude Code's `{"hook_event_name": "PreToolUse", "tool_name": "Write", …}`). */
  event: z.record(z.string(), z.unknown()).optional(),
  expect: z.strictObject({
    /** The composed decision's action (`allow` when no hook objects). */
    action: z.string().min(1),
    /** A regular expression the decision's reason must match. */
    reason: RegExpSourceSchema.optional(),
    /**
     * A regular expression the rewritten field must match: a post-tool `content`, a prompt's
     * `additionalContext`… — or `null`: the field must not be set (no context given).
     */
    fields: z.record(z.string().min(1), RegExpSourceSchema.nullable()).optional(),
  }),
}).superRefine((testCase, ctx) => {
  const seamKeys = testCase.seam !== undefined || testCase.payload !== undefined;
  const agentKeys = testCase.agent !== undefined || testCase.event !== undefined;
  const seamCase = testCase.seam !== undefined && testCase.payload !== undefined && !agentKeys;
  const agentCase = testCase.agent !== undefined && testCase.event !== undefined && !seamKeys;
  if (!seamCase && !agentCase) ctx.addIssue({ code: 'custom', message: 'expected either "seam" and "payload", or "agent" and "event" (the agent\'s own hook JSON)' });
});
export type PolicyCase = z.infer<typeof PolicyCaseSchema>;

/** A cases file (`hookbox test [file]`, default `hookbox.test.json`). */
export const PolicyCasesSchema = z.strictObject({
  $schema: z.string().optional(),
  /** The operator config under test, relative to this file (the project layer). */
  config: z.string().min(1),
  /** The session's working folder, relative to this file; default the config's folder. */
  cwd: z.string().min(1).optional(),
  cases: z.array(PolicyCaseSchema).min(1, 'list at least one case'),
});

/** What one case ended with. */
export interface CaseResult {
  readonly name: string;
  readonly passed: boolean;
  readonly action: string;
  readonly reason?: string;
  /** Why it failed, when it did. */
  readonly problem?: string;
}

/** Which of a configured catalog policy's rules decided some case. */
export interface PolicyCoverage {
  readonly hook: string;
  readonly policy: string;
  readonly rules: readonly { readonly rule: string; readonly cases: number }[];
}

export interface PolicyTestReport {
  readonly results: readonly CaseResult[];
  readonly coverage: readonly PolicyCoverage[];
}

/** The rule a catalog policy's reason names (`protected-paths: write: …` → `write`). */
export function ruleOf(policy: CatalogPolicy, reason: unknown): string | undefined {
  if (typeof reason !== 'string' || !reason.startsWith(`${policy.name}: `)) return undefined;
  const rule = reason.slice(policy.name.length + 2).split(':', 1)[0] as string;
  return policy.rules.includes(rule) ? rule : undefined;
}

function reasonOf(decision: unknown): string | undefined {
  const reason = (decision as { reason?: unknown } | null)?.reason;
  return typeof reason === 'string' ? reason : undefined;
}

/** What names the rule of a decision: its reason, or (an `accept` that rewrote a result) its note to the model. */
function ruleTextOf(decision: unknown): string | undefined {
  const context = (decision as { additionalContext?: unknown } | null)?.additionalContext;
  return reasonOf(decision) ?? (typeof context === 'string' ? context : undefined);
}

/** Runs every case of `file`; a bad file or config throws a `ConfigError` naming the file and the JSON path. */
export async function runPolicyTests(file: string): Promise<PolicyTestReport> {
  const casesFile = path.resolve(file);
  const table = readJsonFile(casesFile, PolicyCasesSchema);
  const configFile = path.resolve(path.dirname(casesFile), table.config);
  const cwd = table.cwd === undefined ? path.dirname(configFile) : path.resolve(path.dirname(casesFile), table.cwd);
  const layered = loadLayeredConfig({ project: configFile });
  const policies = new Map<string, CatalogPolicy>();
  for (const entry of layered.hooks) {
    const policy = CATALOG.find((p) => p.name === entry.policy);
    if (policy !== undefined) policies.set(entry.name, policy);
  }
  const hits = new Map<string, Map<string, number>>([...policies.keys()].map((hook) => [hook, new Map()]));
  const hooks = await openHookSet(configFile);
  const results: CaseResult[] = [];
  try {
    const bus = new SeamBus();
    for (const listener of hooks.listeners) bus.use(listener);
    let seen: HookInvocation[] = [];
    bus.observe((invocation) => seen.push(invocation));
    for (const [index, testCase] of table.cases.entries()) {
      seen = [];
      const calls = seamCalls(testCase, index, casesFile, cwd);
      const first = calls[0] as SeamCallOf;
      const definition = seamDefinition(first.seam);
      let decision: unknown;
      // An agent event may stand for several calls (a Codex apply_patch writing two files): each is decided, the seam composes them.
      for (const call of calls) {
        const session: SessionInfo = { id: 'hookbox-test', turn: 1, step: index + 1, cwd: call.cwd };
        const result = await bus.dispatch(call.seam, call.payload as never, session);
        decision = decision === undefined ? result.decision : definition.compose(decision as never, result.decision as never);
      }
      for (const invocation of seen) {
        const policy = policies.get(invocation.hook);
        const rule = policy === undefined ? undefined : ruleOf(policy, ruleTextOf(invocation.applied));
        if (rule !== undefined) hits.get(invocation.hook)?.set(rule, (hits.get(invocation.hook)?.get(rule) ?? 0) + 1);
      }
      results.push(judge(testCase, decision));
    }
  } finally {
    await hooks.close();
  }
  const coverage = [...policies].map(([hook, policy]) => ({ hook, policy: policy.name, rules: policy.rules.map((rule) => ({ rule, cases: hits.get(hook)?.get(rule) ?? 0 })) }));
  return { results, coverage };
}

type SeamCallOf = { readonly seam: SeamId; readonly payload: unknown; readonly cwd: string };

/** A case's seam calls: its own seam and payload (checked), or what the agent's bridge reads its event as. */
function seamCalls(testCase: PolicyCase, index: number, casesFile: string, cwd: string): SeamCallOf[] {
  if (testCase.agent !== undefined && testCase.event !== undefined) {
    const parsed = agentBridge(testCase.agent).toSeam(testCase.event);
    if (parsed.kind === 'invalid') throw new ConfigError(`${casesFile}: cases[${index}].event: ${parsed.message} (not a ${testCase.agent} hook event)`);
    if (parsed.kind === 'pass') throw new ConfigError(`${casesFile}: cases[${index}].event: ${testCase.agent}'s ${JSON.stringify(parsed.event)} has no seam: hookbox answers it with no opinion, there is nothing to test`);
    return [parsed.event, ...(parsed.more ?? [])].map((event) => ({ seam: event.seam, payload: event.payload, cwd: event.cwd }));
  }
  const seam = testCase.seam as SeamId;
  const definition = seamDefinition(seam);
  const raw = definition.toolScoped ? { toolCallId: `case-${index + 1}`, ...testCase.payload } : testCase.payload;
  const payload = definition.payload.safeParse(raw);
  if (!payload.success) {
    const first = payload.error.issues[0];
    throw new ConfigError(`${casesFile}: cases[${index}].payload${first?.path.length ? `.${first.path.join('.')}` : ''}: ${first?.message ?? 'invalid'} (not a ${seam} payload)`);
  }
  return [{ seam, payload: payload.data, cwd }];
}

function judge(testCase: PolicyCase, decision: unknown): CaseResult {
  const action = String((decision as { action?: unknown } | null)?.action ?? 'none');
  const reason = reasonOf(decision);
  const base = { name: testCase.name, action, ...(reason !== undefined && { reason }) };
  if (action !== testCase.expect.action) return { ...base, passed: false, problem: `expected ${testCase.expect.action}, got ${action}` };
  if (testCase.expect.reason !== undefined && !new RegExp(testCase.expect.reason).test(reason ?? '')) {
    return { ...base, passed: false, problem: `reason does not match /${testCase.expect.reason}/` };
  }
  for (const [field, source] of Object.entries(testCase.expect.fields ?? {})) {
    const value = (decision as Record<string, unknown> | null)?.[field];
    if (source === null) {
      if (value !== undefined) return { ...base, passed: false, problem: `${field} is set, expected none` };
      continue;
    }
    if (typeof value !== 'string' || !new RegExp(source).test(value)) return { ...base, passed: false, problem: `${field} ${typeof value === 'string' ? `does not match /${source}/` : 'is not set'}` };
  }
  return { ...base, passed: true };
}

/** The report as `hookbox test` prints it: a line per case, then the coverage. Hook text is sanitised. */
export function describeReport(report: PolicyTestReport): string {
  const lines: string[] = [];
  for (const result of report.results) {
    const reason = result.reason === undefined ? '' : ` — ${printable(result.reason, { maxLength: 300 })}`;
    lines.push(`${result.passed ? 'pass' : 'FAIL'}  ${printable(result.name, { maxLength: 200 })}: ${result.action}${reason}`);
    if (result.problem !== undefined) lines.push(`      ${result.problem}`);
  }
  const failed = report.results.filter((r) => !r.passed).length;
  lines.push('', `${report.results.length - failed} passed, ${failed} failed`);
  if (report.coverage.length > 0) lines.push('', 'rule coverage (cases decided by each rule):');
  for (const policy of report.coverage) {
    const covered = policy.rules.filter((r) => r.cases > 0).length;
    const rules = policy.rules.map((r) => `${r.rule} ${r.cases}`).join(', ');
    lines.push(`  ${policy.hook} (${policy.policy}): ${covered}/${policy.rules.length} rules — ${rules}`);
  }
  return `${lines.join('\n')}\n`;
}
