// The build-freshness check lives at host/fresh-build.mjs (rank 0: the bin and
// pdk/testing.mjs both read it). This re-export keeps the CommonJS hook
// client's `import('./fresh-build.mjs')` working until that client imports
// it from its new place.
export { freshBuild } from '../fresh-build.mjs';
