/**
 * hookbox inside the real OpenCode (`opencode-ai` 1.18.33, headless
 * `opencode run`), installed from the registry at test time (its binary
 * package is per platform, so it cannot be a devDependency), against the mock
 * chat-completions model on loopback: set up by `hookbox setup opencode
 * --project`, its plugin deciding through `hookbox serve`. Its cases are the
 * plugin agents' shared ones (`plugin-agent.case.ts`).
 */
import { describe } from 'vitest';
import { OPENCODE_TOOLS } from '../../host/agents/opencode/tools.ts';
import { installedAgent } from '../helpers/agent-install.ts';
import { useRealAgentSuite } from '../helpers/agent-suite.ts';
import { agentUnavailable, runOpenCode, writeOpenCodeProject } from '../helpers/real-agents.ts';
import { skipUnless } from '../helpers/skips.ts';
import { pluginAgentCases } from './plugin-agent.case.ts';

const install = installedAgent('opencode-ai@1.18.33', 'opencode');
const unavailable = install.kind === 'installed' ? agentUnavailable(install.bin, '1.18.33') : install.reason;
const BIN = install.kind === 'installed' ? install.bin : '';
const RUN_TIMEOUT = 400_000;

describe.skipIf(skipUnless('hookbox inside the real OpenCode', unavailable))(`hookbox inside the real OpenCode${unavailable === undefined ? '' : ` — skipped, because ${unavailable}`}`, () => {
  const suite = useRealAgentSuite('hookbox-opencode-suite-');
  pluginAgentCases(
    {
      agent: 'opencode',
      runCommand: 'opencode run',
      pluginFile: '.opencode/plugin/hookbox.js',
      pluginModule: 'opencode/plugin.mjs',
      toolCallEvent: 'tool.execute.before',
      tools: OPENCODE_TOOLS,
      asides: true,
      writeModel: (ws, url) => writeOpenCodeProject(ws.project, url),
      shell: (command, description) => ({ toolCalls: [{ name: 'bash', arguments: { command, description } }] }),
      edit: (filePath, oldString, newString) => ({ toolCalls: [{ name: 'edit', arguments: { filePath, oldString, newString } }] }),
      // A blocked prompt: OpenCode reports only an error.
      run: (home, project, prompt) => runOpenCode(BIN, home, project, prompt),
    },
    suite,
    RUN_TIMEOUT,
  );
});
