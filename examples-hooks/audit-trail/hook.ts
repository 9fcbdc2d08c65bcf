/**
 * audit-trail — observes every seam and logs one JSON line per call through
 * Extism logging. It never returns a decision: every handler has no opinion.
 */
import { defineHook } from '../../pdk/index.ts';
import { auditLine } from './policy.ts';

export default defineHook({
  sessionStart(payload, ctx) {
    ctx.log.info(auditLine('agent/session-start', ctx.session, payload, ctx.next));
  },
  promptSubmit(payload, ctx) {
    ctx.log.info(auditLine('agent/prompt-submit', ctx.session, payload, ctx.next));
  },
  preTool(payload, ctx) {
    ctx.log.info(auditLine('tools/pre-execute', ctx.session, payload, ctx.next));
  },
  postTool(payload, ctx) {
    ctx.log.info(auditLine('tools/post-execute', ctx.session, payload, ctx.next));
  },
  turnContinuation(payload, ctx) {
    ctx.log.info(auditLine('agent/turn-continuation', ctx.session, payload, ctx.next));
  },
  permissionRequest(payload, ctx) {
    ctx.log.info(auditLine('tools/permission-request', ctx.session, payload, ctx.next));
  },
  subagentStart(payload, ctx) {
    ctx.log.info(auditLine('agent/subagent-start', ctx.session, payload, ctx.next));
  },
  subagentStop(payload, ctx) {
    ctx.log.info(auditLine('agent/subagent-stop', ctx.session, payload, ctx.next));
  },
  notification(payload, ctx) {
    ctx.log.info(auditLine('agent/notification', ctx.session, payload, ctx.next));
  },
  preCompact(payload, ctx) {
    ctx.log.info(auditLine('agent/pre-compact', ctx.session, payload, ctx.next));
  },
  sessionEnd(payload, ctx) {
    ctx.log.info(auditLine('agent/session-end', ctx.session, payload, ctx.next));
  },
});
