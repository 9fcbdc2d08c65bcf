import { PASSED, type RewriteWays, denyWay, shellWay } from '../tool-rewrite.ts';
import type { FactoryTool } from './tools.ts';

const UNMEASURED = denyWay('Factory Droid was measured to apply updatedInput for Execute only');

/**
 * How each Factory Droid tool takes a pre-tool rewrite back as
 * `updatedInput`. Measured with 0.225.2: `permissionDecision: "allow"` +
 * `updatedInput` for `Execute` ran the rewritten command (out.txt held B), so
 * `Execute` maps exactly, keeping `summary`; the file tools are denies until
 * a run shows the same for them; passed tools are denies.
 */
export const FACTORY_REWRITES: RewriteWays<FactoryTool> = {
  Execute: shellWay('command'),
  Read: UNMEASURED,
  Create: UNMEASURED,
  Edit: denyWay('Edit takes old and new strings, not the file\'s content'),
  LS: UNMEASURED,
  Grep: PASSED,
  Glob: PASSED,
  Task: denyWay('it starts a subagent from a prompt; hookbox shows no arguments of it to map a rewrite back onto'),
  TaskOutput: PASSED,
  TaskStop: PASSED,
  ToolSearch: PASSED,
  Skill: PASSED,
  ConnectorSearch: PASSED,
  GenerateImage: PASSED,
};
