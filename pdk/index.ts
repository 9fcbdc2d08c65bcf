/**
 * The hookbox PDK: what a hook's source imports. A hook file does
 * `export default defineHook({...})`; `hookbox build` compiles it to a plain
 * Extism plugin with one export per handler defined.
 *
 * @example
 * ```ts
 * import { defineHook, allow, deny, ask } from '../../pdk/index.ts';
 *
 * export default defineHook({
 *   preTool(payload, ctx) {
 *     if (payload.toolName !== 'bash') return; // no opinion
 *     const command = String(payload.arguments.command ?? '');
 *     if (command.includes('rm -rf /')) return deny('recursive delete of /');
 *     if (command.startsWith('git push')) return ask('pushes to a remote');
 *     return allow();
 *   },
 * });
 * ```
 *
 * @packageDocumentation
 */
export { accept, allow, ask, block, continueTurn, continueTurn as continue, deny, rewrite, stop } from './decisions.ts';
export type { ContinueDecision, PostToolAccept, PreToolAllow, PromptAllow } from './decisions.ts';
export { HANDLER_EXPORTS, defineHook, isHookDefinition } from './define-hook.ts';
export { SignalError, signal } from './signal.ts';
export type { SignalOutput } from './signal.ts';
export type { HookContext, HookDefinition, HookExportName, HookHandlers, HookRequests } from './define-hook.ts';
export type * from './types.ts';
