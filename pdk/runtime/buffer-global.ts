// The `Buffer` global of a hook, from the npm `buffer` package (Node's Buffer API in plain
// JavaScript), as js-pdk provides it. Not part of the engine: the bundler injects this module
// only into hooks that name `Buffer` or require `buffer` (pdk/compiler/bundle.ts), so a hook
// that does not use it pays nothing.
export { Buffer } from 'buffer';
