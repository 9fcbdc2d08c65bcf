/**
 * The names module-prep rewrites a WASI module with, apart from the WASI
 * implementation (index.ts), so preparing a module on the main thread does not
 * load the code only a worker's instances run.
 */

/** The WASI module name hooks import. */
export const WASI_MODULE = 'wasi_snapshot_preview1';
/** What module-prep renames WASI imports to: same byte length as `WASI_MODULE`, so the rename is in place. */
export const WASI_HOST_MODULE = 'hookbox:wasi_preview_1';
/**
 * What module-prep renames a WASI module's `_initialize` export to (same
 * length), so the SDK does not run it before the guest memory is reachable;
 * the adapter calls it once the instance exists.
 */
export const INIT_EXPORT = 'hookbox:ini';
/** `_start` renamed (same length): a WASI command's `main` is never run, as Node's WASI in the SDK never ran it. */
export const START_EXPORT = 'hbx:st';
