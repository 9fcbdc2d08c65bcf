/* Generated from host/seams by `npm run gen`; do not edit. */
/* eslint-disable */

/**
 * Every seam in lifecycle order: its id, its wasm export and its PDK handler.
 * A seam's position is its export index on the runner's call channel.
 */
export const SEAM_NAMES = [
  { id: 'agent/session-start', export: 'session_start', handler: 'sessionStart' },
  { id: 'agent/prompt-submit', export: 'prompt_submit', handler: 'promptSubmit' },
  { id: 'tools/pre-execute', export: 'pre_tool', handler: 'preTool' },
  { id: 'tools/permission-request', export: 'permission_request', handler: 'permissionRequest' },
  { id: 'tools/post-execute', export: 'post_tool', handler: 'postTool' },
  { id: 'agent/subagent-start', export: 'subagent_start', handler: 'subagentStart' },
  { id: 'agent/subagent-stop', export: 'subagent_stop', handler: 'subagentStop' },
  { id: 'agent/turn-continuation', export: 'turn_continuation', handler: 'turnContinuation' },
  { id: 'agent/notification', export: 'notification', handler: 'notification' },
  { id: 'agent/pre-compact', export: 'pre_compact', handler: 'preCompact' },
  { id: 'agent/session-end', export: 'session_end', handler: 'sessionEnd' },
] as const;

export type SeamName = (typeof SEAM_NAMES)[number];
/** A seam id. */
export type SeamId = SeamName['id'];
/** A wasm export name of one seam. */
export type SeamExport = SeamName['export'];
/** A PDK handler name of one seam. */
export type HandlerName = SeamName['handler'];

/** The export names by index. */
export const SEAM_EXPORTS: readonly SeamExport[] = SEAM_NAMES.map((name) => name.export);

/** PDK handler name → wasm export name. */
export const HANDLER_EXPORTS = Object.fromEntries(SEAM_NAMES.map((name) => [name.handler, name.export])) as {
  readonly [N in SeamName as N['handler']]: N['export'];
};
