import type { DecisionOf, PayloadOf, SeamId } from '../seams/index.ts';
import type { SystemSetup } from './system-scope.ts';
import type { AgentToolCall, RewriteBack } from './tool-rewrite.ts';

/** Where each command handler of a settings file sits: event, group index, handler index, matcher, and the handler (hook-groups.ts reads them). */
export interface HandlerPosition {
  readonly event: string;
  readonly group: number;
  readonly index: number;
  readonly matcher: string | undefined;
  readonly handler: Record<string, unknown>;
}

/**
 * One coding agent (Claude Code, Codex, Gemini CLI) seen from hookbox's side:
 * its hook events become seam calls, its tools become hookbox's tools, and a
 * seam decision goes back as the answer the agent reads. `hookbox serve`,
 * `hookbox hook <agent>` and `hookbox setup <agent>` know nothing else about
 * an agent; each agent is one module implementing this interface, registered
 * in `registry.ts`, and every module passes the same conformance suite.
 */
export interface AgentBridge<N extends string = string> {
  /** The name used on the command line and in URLs (`hookbox hook claude-code`, `/hooks/claude-code`): its key in `registry.ts`. */
  readonly name: N;
  /** How the agent is named in messages ("Claude Code"). */
  readonly label: string;
  /** The agent's hook events hookbox answers, each with the seam it maps to (the table in the README). */
  readonly events: readonly AgentEventMapping[];
  /**
   * What the agent can take back in place of what it sent. Where it cannot,
   * the server degrades a hook's rewrite to a block with the reason (never
   * lets the original through silently): `prompt` — a rewritten prompt;
   * `toolResult` — replaced tool output (for every tool, or per hookbox tool name).
   */
  readonly canReplace: { readonly prompt: boolean; readonly toolResult: boolean | ((toolName: string) => boolean) };
  /**
   * Agent event JSON (already parsed) → a seam call, an event hookbox passes
   * on, or a named error. `named`: the event as the hook's command line or
   * URL names it (`hookbox hook copilot preToolUse`, `/hooks/copilot/preToolUse`),
   * for an agent whose events carry no name (`eventOnCommandLine`).
   */
  toSeam(input: unknown, named?: string): ParsedAgentEvent;
  /**
   * The agent's events carry no event name (Copilot CLI's own format): setup
   * names it on each hook's command line, the clients send it in the URL.
   */
  readonly eventOnCommandLine?: true;
  /** A seam decision → what the agent reads back for this event. */
  answer<S extends SeamId>(event: AgentSeamEvent<S>, decision: DecisionOf<S>): AgentAnswer;
  /**
   * The fail-closed answer for an event that could not be decided (malformed,
   * oversized, unauthenticated, server error). `event` is the agent's event
   * name when it could be read; the answer must never let a tool call, prompt
   * or result through, and must not force a turn on.
   */
  failClosed(event: string | undefined, reason: string): AgentAnswer;
  /**
   * A pre-tool rewrite (hookbox's final arguments) → the agent's own tool
   * input, or why it cannot be applied there (tool-rewrite.ts). Absent: the
   * agent takes no rewrite, and every rewritten call is denied.
   */
  rewriteBack?(event: AgentSeamEvent<'tools/pre-execute'>, args: Readonly<Record<string, unknown>>): RewriteBack;
  /**
   * The bridge's own answer to a rewritten call tells the model of it (the
   * one note, `rewrittenCallNote`: Claude Code's and Codex's pre-tool
   * `additionalContext`). Unset: `serve` puts the note in that call's
   * post-tool context, which the agent adds to the result the model reads.
   */
  readonly notesRewrittenCall?: true;
  /** How `hookbox setup <agent>` writes and removes hookbox's entries in the agent's settings. */
  readonly setup: AgentSetup;
  /**
   * The variable the agent sets to the project folder when it runs a hook
   * command (`CLAUDE_PROJECT_DIR`); absent where it names none (Codex runs
   * hooks in the session's folder).
   */
  readonly projectDirVariable?: string;
  /** What `hookbox doctor` sends through the agent's configured hook to see it decided. */
  readonly probe: AgentProbe;
}

/**
 * `hookbox doctor`'s probe of one agent: a harmless event, asked as the agent
 * asks it, and how the agent runs the hook command it is sent through.
 */
export interface AgentProbe {
  /** A pre-tool event for the shell command `true`, in the agent's JSON, run in `cwd`. */
  event(cwd: string): Record<string, unknown>;
  /** Milliseconds per unit of a handler's `timeout` in the agent's settings (seconds: 1000). */
  readonly timeoutUnitMs: number;
  /** The event's name where the agent names it outside the JSON (`eventOnCommandLine`): the probe's route. */
  readonly eventName?: string;
}

/** One of an agent's events in its protocol table, with what each decision becomes. */
export interface AgentEventRow<E extends string = string> {
  /** The agent's event name (`PreToolUse`). */
  readonly event: E;
  /** One line: what each decision becomes in the agent (for the README table and `setup` output). */
  readonly answers: string;
}

/**
 * An agent's protocol table: for every seam, the agent events that stand for
 * it, the first being the one hookbox sends a hook of that agent's format;
 * none (`[]`) where the agent has no such event. Keyed by `SeamId`, so a new
 * seam is a compile error until each agent says what it maps it to.
 * `E`: the events an agent of a shared format may list (the format's, which
 * its bridge reads), so an event the format has no reader for fails there.
 */
export type SeamEventTable<E extends string = string> = { readonly [S in SeamId]: readonly [] | readonly [AgentEventRow<E>, ...AgentEventRow<E>[]] };

/** One row of an agent's mapping table. */
export interface AgentEventMapping {
  /** The agent's event name (`PreToolUse`). */
  readonly event: string;
  readonly seam: SeamId;
  /** One line: what each decision becomes in the agent (for the README table and `setup` output). */
  readonly answers: string;
}

/**
 * One agent hook event as a seam call. The server adds what only it knows:
 * the turn, the continuation count (for `agent/turn-continuation` the bridge
 * sets `continuations: 0` and reports `alreadyContinued`), the session log.
 */
export interface AgentSeamEvent<S extends SeamId = SeamId> {
  /** The agent's event name as received (`PreToolUse`). */
  readonly event: string;
  /** The agent's session id; validated as a file-name-safe token by the bridge. */
  readonly sessionId: string;
  /** The agent's working directory (absolute). */
  readonly cwd: string;
  readonly seam: S;
  readonly payload: PayloadOf<S>;
  /** Stop only: the agent says this turn was already forced on by a hook (Claude Code's `stop_hook_active`). */
  readonly alreadyContinued?: boolean;
  /** A pre-tool event of a bridge with `rewriteBack`: the agent's own call, which a rewrite is mapped back onto. */
  readonly agentCall?: AgentToolCall;
}

/** What `toSeam` made of the agent's JSON. */
export type ParsedAgentEvent =
  /**
   * `more`: further calls on the same seam the one agent event stands for (a
   * Codex `apply_patch` touching several files is one write per file). Each
   * is decided; the seam's own composition folds them (deny > ask > allow,
   * block beats accept), and `event` is what the answer is written for.
   */
  | { readonly kind: 'seam'; readonly event: AgentSeamEvent; readonly more?: readonly AgentSeamEvent[] }
  /** An event hookbox has no seam for: answered with "no opinion", never blocked. */
  | { readonly kind: 'pass'; readonly event: string; readonly sessionId?: string; readonly answer: AgentAnswer }
  /** Not a valid event; `message` names the JSON path and what was expected there. */
  | { readonly kind: 'invalid'; readonly event?: string; readonly message: string };

/**
 * What the agent reads back, in command-hook terms: exit code, stdout,
 * stderr. An HTTP hook gets `stdout` as a 200 body when `exitCode` is 0;
 * exit code 2 (a blocking error with `stderr` as the reason) has no HTTP
 * form in every agent, so bridges answer with JSON on exit 0 wherever the
 * agent can read a decision from it.
 */
export interface AgentAnswer {
  readonly exitCode: 0 | 2;
  readonly stdout: string;
  readonly stderr: string;
}

/** A file hookbox's self-protection guards, or a folder guarded with everything inside it. */
export interface ProtectedPath {
  /** Absolute. */
  readonly path: string;
  /** The agent loads every file in this folder (Copilot's `.github/hooks/`, pi's `.pi/extensions/`). */
  readonly folder?: true;
}

/** Where hookbox's entries go: a project's settings or the user's. */
export type SetupScope = { readonly kind: 'project'; readonly dir: string } | { readonly kind: 'user'; readonly home: string };

/** How the agent reaches hookbox. */
export type SetupTransport =
  /** The agent runs `command` per event (a `hookbox hook <agent> …` command line). Fails closed. */
  | { readonly kind: 'command'; readonly command: string }
  /** The agent POSTs each event to `url`, with `headers` (the bearer token). */
  | { readonly kind: 'http'; readonly url: string; readonly headers: Readonly<Record<string, string>> }
  /**
   * The agent loads hookbox's plugin module (`module`: as the plugin file
   * imports it) in its own process; the plugin asks the server on `socket`
   * and answers closed past `deadlineMs`. Paths relative to the project.
   */
  | { readonly kind: 'plugin'; readonly module: string; readonly options: { readonly socket: string; readonly config: string; readonly deadlineMs: number } };

/** One change `setup` made or would make, for its report. */
export interface SetupChange {
  readonly action: 'added' | 'replaced' | 'removed' | 'unchanged';
  /** Where in the settings (`hooks.PreToolUse[2]`). */
  readonly where: string;
  readonly what: string;
}

/** The result of editing the agent's settings object. */
export interface SetupEdit {
  /** The settings to write back (the input object is not mutated). */
  readonly settings: Record<string, unknown>;
  readonly changes: readonly SetupChange[];
}

/**
 * How `hookbox setup` and `hookbox doctor` with no agent named tell that a
 * project (or a user) uses the agent: a folder the agent keeps there, or a
 * command it installs on `PATH`.
 */
export interface AgentDetect {
  /** Folders relative to the project (the home folder for the user's settings): `.claude`. */
  readonly folders: readonly string[];
  /** Command names looked up on `PATH`: `claude`. */
  readonly commands: readonly string[];
}

/** An agent's settings: where they are and how hookbox's entries are merged in and taken out. */
export interface AgentSetup {
  /** What shows the agent is used, for setup and doctor with no agent named. */
  readonly detect: AgentDetect;
  /** The settings file for a scope (`<dir>/.claude/settings.json`, `<home>/.claude/settings.json`). */
  settingsPath(scope: SetupScope): string;
  /**
   * Every file (or folder, all of whose files the agent loads) whose change
   * could switch hookbox off in this agent for a scope: what setup writes,
   * the files beside it the agent reads hooks, trust or a "disable hooks"
   * switch from. hookbox's self-protection refuses the agent's own tool calls
   * that change any of them (host/guard).
   */
  protectedPaths(scope: SetupScope): readonly ProtectedPath[];
  /**
   * The agent's machine-wide (managed) scope, above every user and project
   * setting, that `setup --system` writes — or why it has none and what is
   * strongest instead. Its file is protected like `protectedPaths`.
   */
  readonly system: SystemSetup;
  /**
   * The agent's uncommitted settings file for a scope, where one exists
   * (Claude Code: `.claude/settings.local.json`): setup writes a transport
   * that carries a secret (the http bearer token) there, never into the
   * committed file. Absent: the agent has none.
   */
  localSettingsPath?(scope: SetupScope): string | undefined;
  /**
   * An agent that loads hookbox as a plugin in its own process (pi, OpenCode):
   * the module inside hookbox's package the plugin file imports, and the
   * file's text format. Absent: the agent runs hook commands or URLs named in
   * a JSON settings file.
   */
  readonly plugin?: { readonly module: string };
  /**
   * Where `settingsPath` is a folder of hook files, one per event (Cline's
   * `.clinerules/hooks/`): how it is read as a settings object and written
   * back (each file hookbox's whole; a file it did not write is never
   * touched). Absent: `settingsPath` is one file.
   */
  readonly folderFormat?: { read(folder: string): Record<string, unknown>; write(folder: string, settings: Record<string, unknown>): void };
  /** How the settings file is read and written when it is not a JSON object; `format` undefined deletes the file. Absent: JSON. */
  readonly fileFormat?: { parse(text: string): Record<string, unknown>; format(settings: Record<string, unknown>): string | undefined };
  /**
   * hookbox's handlers in written settings, as doctor probes them (`command`,
   * `timeout`), where the file is not the `hooks.<Event>[group].hooks[]`
   * layout (Copilot's flat `hooks.<event>[]` of `bash` commands). Absent: that layout.
   */
  handlers?(settings: Record<string, unknown>): HandlerPosition[];
  /**
   * Events the agent calls command hooks only for (Claude Code's
   * SessionStart): an http setup writes no entry for them, so doctor does not
   * ask for one there. Absent: none.
   */
  readonly commandOnlyEvents?: readonly string[];
  /**
   * Set when the agent reads the project's settings only in the folder it is
   * started in, never a folder above (measured): what happens when it is
   * started in a subfolder, said by setup and doctor there. Absent: the
   * agent finds the project's settings above its start folder, or was not measured.
   */
  readonly startFolderOnly?: string;
  /**
   * Where `startFolderOnly` is set: the agent's user-level "locator" entry,
   * the one place the agent reads in every folder. Its command (built by
   * host/cli/setup-locator.ts) walks up from the start folder to a project
   * `setup` registered and decides with that project's config. These edit
   * exactly that entry; `apply`/`remove` never touch it, nor it theirs.
   */
  readonly locator?: {
    apply(settings: Record<string, unknown>, command: string, timeoutS: number): SetupEdit;
    remove(settings: Record<string, unknown>): SetupEdit;
    /** The locator entry's command in these settings (the first found), if any. */
    command(settings: Record<string, unknown>): string | undefined;
  };
  /**
   * The agent waits this long for a hook, fixed (no setting to raise it), and
   * runs the call when it passes (Cline: 120 s): setup caps the client's
   * deadline a margin below it, so the client answers closed first even when
   * the hooks' own limits add up to more. Absent: the agent is told setup's timeout.
   */
  readonly fixedAnswerTimeoutMs?: number;
  /** Does this transport work in this agent (Codex and Gemini have no http hooks)? A reason when it does not. */
  unsupported(transport: SetupTransport['kind']): string | undefined;
  /** Adds (or replaces) hookbox's entries, keeping every other key, hook and their order. Idempotent. */
  apply(settings: Record<string, unknown>, transport: SetupTransport, options?: SetupOptions): SetupEdit;
  /** Takes out exactly hookbox's entries (those `apply` writes), nothing else. */
  remove(settings: Record<string, unknown>): SetupEdit;
  /** What the user should know about this transport in this agent (printed by setup). */
  tradeOff(transport: SetupTransport['kind']): string;
  /**
   * Steps outside the settings file the agent needs before it runs
   * hookbox's entries (Codex: trust recorded in `config.toml`), run after
   * the settings were written (`after`) or taken out. Absent: none.
   */
  finish?(context: SetupFinishContext): SetupFinish;
  /**
   * `hookbox doctor`'s agent-specific checks of written settings (Codex:
   * each hookbox handler trusted with the current hash, the project
   * trusted). Absent: the agent needs nothing beyond the entries.
   */
  verify?(context: SetupVerifyContext): readonly DoctorFinding[];
}

export interface SetupVerifyContext {
  readonly scope: SetupScope;
  readonly settingsFile: string;
  readonly settings: Record<string, unknown>;
}

/** One line of `hookbox doctor`: what was checked, whether it holds, and the fix when it does not. */
export interface DoctorFinding {
  readonly ok: boolean;
  readonly what: string;
  readonly fix?: string;
}

/** What `apply` may take from the operator config. */
export interface SetupOptions {
  /**
   * How long the agent should wait for one hookbox answer, in ms: above the
   * client's own worst case, so the client (which fails closed) gives up
   * before the agent does (which, on a timeout, fails open).
   */
  readonly answerTimeoutMs?: number;
}

/** The settings as they were and as written, for `finish`. */
export interface SetupFinishContext {
  readonly scope: SetupScope;
  readonly settingsFile: string;
  readonly before: Record<string, unknown>;
  readonly after: Record<string, unknown>;
  readonly removing: boolean;
}

/** What `finish` changed, and what the user must still do (each note one exact step). */
export interface SetupFinish {
  readonly changes: readonly SetupChange[];
  readonly notes: readonly string[];
}
