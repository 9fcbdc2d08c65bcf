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

/**
 * The functions of `wasi_snapshot_preview1` hookbox serves, by the file that
 * implements them: each of `fd-calls.ts`, `path-calls.ts` and `proc-calls.ts`
 * returns a `Record` over its list, so a missing or misspelt function fails
 * `tsc`, and `WASI_FUNCTIONS` (the import table) is their union.
 */
export const FD_CALLS = [
  'fd_advise', 'fd_allocate', 'fd_close', 'fd_datasync', 'fd_sync', 'fd_fdstat_get', 'fd_fdstat_set_flags',
  'fd_fdstat_set_rights', 'fd_filestat_get', 'fd_filestat_set_size', 'fd_filestat_set_times', 'fd_pread',
  'fd_pwrite', 'fd_read', 'fd_write', 'fd_renumber', 'fd_seek', 'fd_tell',
] as const;
/** Preopens, directory reads and every `path_*` call (`path-calls.ts`). */
export const PATH_CALLS = [
  'fd_prestat_get', 'fd_prestat_dir_name', 'fd_readdir', 'path_open', 'path_create_directory',
  'path_filestat_get', 'path_filestat_set_times', 'path_link', 'path_readlink', 'path_remove_directory',
  'path_rename', 'path_symlink', 'path_unlink_file',
] as const;
/** Arguments, environment, clocks, randomness, process and socket calls (`proc-calls.ts`). */
export const PROC_CALLS = [
  'args_sizes_get', 'args_get', 'environ_sizes_get', 'environ_get', 'clock_res_get', 'clock_time_get',
  'random_get', 'proc_exit', 'proc_raise', 'sched_yield', 'poll_oneoff', 'sock_accept', 'sock_recv',
  'sock_send', 'sock_shutdown',
] as const;
/** Every WASI preview1 function hookbox's import table holds. */
export const WASI_FUNCTIONS = [...FD_CALLS, ...PATH_CALLS, ...PROC_CALLS] as const;
/** A WASI preview1 function name. */
export type WasiFunctionName = (typeof WASI_FUNCTIONS)[number];
