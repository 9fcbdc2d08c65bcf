/**
 * Runs sessions as fast as it can until killed: the crash test SIGKILLs
 * this process at random points and checks what it left behind.
 */
import { nativeHook, SeamBus } from '../../host/events/index.ts';
import { Session } from '../../host/loop/index.ts';
import { ScriptedProvider } from '../../host/providers/scripted.ts';
import { builtinTools } from '../../host/tools/index.ts';

const [logPath, cwd] = process.argv.slice(2);
if (logPath === undefined || cwd === undefined) throw new Error('usage: crash-child <log> <cwd>');

const bus = new SeamBus();
bus.use(
  nativeHook({
    name: 'annotate',
    handlers: {
      'tools/post-execute': (payload) => ({ action: 'accept', additionalContext: `saw ${payload.toolCallId} ${'x'.repeat(2000)}` }),
      'agent/prompt-submit': () => ({ action: 'allow', additionalContext: 'y'.repeat(4000) }),
    },
  }),
);
const step = {
  toolCalls: [
    { id: 'c1', name: 'write_file', arguments: { path: 'a.txt', content: 'z'.repeat(8000) } },
    { id: 'c2', name: 'read_file', arguments: { path: 'a.txt' } },
  ],
};
const steps = Array.from({ length: 100_000 }, (_, index) => (index % 3 === 2 ? { text: 'done' } : step));
const session = await Session.start({ cwd, logPath, tools: builtinTools(), provider: new ScriptedProvider({ steps }), bus, maxSteps: 1000 });
process.stdout.write('ready\n');
for (let turn = 0; ; turn += 1) await session.prompt(`turn ${turn}`);
