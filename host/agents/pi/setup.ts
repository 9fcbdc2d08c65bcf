import path from 'node:path';
import { noSystemScope } from '../system-setup.ts';
import type { AgentSetup, SetupScope } from '../agent-bridge.ts';
import { pluginFileSetup } from '../plugin-file.ts';

/** pi's agent folder: `$PI_CODING_AGENT_DIR`, else `<home>/.pi/agent`. */
export function piAgentDir(home: string): string {
  const env = process.env.PI_CODING_AGENT_DIR;
  return env !== undefined && env !== '' ? path.resolve(env) : path.join(home, '.pi', 'agent');
}

/** pi loads every `.ts` file in `.pi/extensions/` of the project and in its agent folder's `extensions/`. */
function file(scope: SetupScope): string {
  return scope.kind === 'project' ? path.join(scope.dir, '.pi', 'extensions', 'hookbox.ts') : path.join(piAgentDir(scope.home), 'extensions', 'hookbox.ts');
}

/** pi's hookbox extension: `.pi/extensions/hookbox.ts` of a project, or the user's (`$PI_CODING_AGENT_DIR/extensions/hookbox.ts`). */
export const piSetup: AgentSetup = {
  ...pluginFileSetup({
    label: 'pi',
    name: 'pi',
    detect: { folders: ['.pi'], commands: ['pi'] },
    file,
    factory: 'hookboxPiExtension',
    exportAs: 'export default',
    tradeOff:
      "pi runs hookbox's extension in its own process: each event goes to `hookbox serve` over its socket (with no server, to a `hookbox hook pi` process deciding in-process). pi gives an extension no deadline, so the extension keeps its own and answers closed past it, or on any error.",
  }),
  plugin: { module: 'host/agents/pi/extension.mjs' },
  system: noSystemScope('pi reads extensions from the project and the user\'s agent folder only; it has no machine-wide or managed scope', "hookbox setup pi --user (the user's extension) in every account, with hookbox's self-protection on: the agent's own tool calls cannot change it, but the developer can"),
};
