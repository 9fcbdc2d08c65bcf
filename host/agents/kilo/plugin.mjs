// hookbox's plugin for Kilo CLI (`hookbox/kilo`): `hookbox setup kilo` writes
// `.kilo/plugins/hookbox.js`, which hands this factory its options. Kilo kept
// OpenCode's plugin API (the same hooks, inputs and SDK client), so this is
// OpenCode's plugin asking `hookbox serve` as `kilo`: the kilo bridge reads
// Kilo's own tools (its background processes are shell commands).
import { openCodeFormatPlugin } from '../opencode/plugin.mjs';

/** The Kilo plugin, for the options of `.kilo/plugins/hookbox.js` (`from`: that file's `import.meta.url`). */
export function hookboxKiloPlugin(options, from) {
  return openCodeFormatPlugin('kilo', options, from);
}
