// The `URLPattern` global of a hook, from the npm `urlpattern-polyfill` package, as js-pdk
// provides it. Not part of the engine: the bundler injects this module only into hooks that
// name `URLPattern` (pdk/compiler/bundle.ts).
export { URLPattern } from 'urlpattern-polyfill/urlpattern';
