import { randomFillSync } from 'node:crypto';
import { Errno, WasiExit } from './errno.ts';
import type { WasiFn, WasiState } from './state.ts';
import type { PROC_CALLS } from './names.ts';

const n = Number;
const MAX_RANDOM_CHUNK = 65_536;

/**
 * Process-level calls: no arguments, only the granted environment, the
 * clock only when granted (else `ENOTCAPABLE` and nothing written), random
 * bytes from node:crypto, `proc_exit` as a `WasiExit` thrown through the
 * guest. No sockets exist and nothing can be waited on.
 */
export function procCalls(state: WasiState): Record<(typeof PROC_CALLS)[number], WasiFn> {
  const clockNs = (id: number): bigint | undefined => {
    switch (id) {
      case 0: // realtime
        return BigInt(Date.now()) * 1_000_000n;
      case 1: // monotonic
        return process.hrtime.bigint();
      case 2: // process cputime
      case 3: {
        // thread cputime (the worker shares the process's accounting)
        const usage = process.cpuUsage();
        return BigInt(usage.user + usage.system) * 1000n;
      }
      default:
        return undefined;
    }
  };
  return {
    args_sizes_get: (countPtr, sizePtr) => {
      const memory = state.memory();
      memory.setU32(n(countPtr), 0);
      memory.setU32(n(sizePtr), 0);
      return Errno.SUCCESS;
    },
    args_get: () => Errno.SUCCESS,
    environ_sizes_get: (countPtr, sizePtr) => {
      const memory = state.memory();
      memory.setU32(n(countPtr), state.environ.length);
      memory.setU32(n(sizePtr), state.environ.reduce((sum, entry) => sum + entry.byteLength, 0));
      return Errno.SUCCESS;
    },
    environ_get: (environPtr, bufPtr) => {
      const memory = state.memory();
      let at = n(bufPtr);
      state.environ.forEach((entry, i) => {
        memory.setU32(n(environPtr) + i * 4, at);
        memory.slice(at, entry.byteLength).set(entry);
        at += entry.byteLength;
      });
      return Errno.SUCCESS;
    },
    clock_res_get: (id, ptr) => {
      if (!state.clock) return Errno.NOTCAPABLE;
      if (clockNs(n(id)) === undefined) return Errno.INVAL;
      state.memory().setU64(n(ptr), n(id) === 1 ? 1n : 1000n);
      return Errno.SUCCESS;
    },
    clock_time_get: (id, _precision, ptr) => {
      if (!state.clock) {
        state.clockDenied();
        return Errno.NOTCAPABLE;
      }
      const now = clockNs(n(id));
      if (now === undefined) return Errno.INVAL;
      state.memory().setU64(n(ptr), now);
      return Errno.SUCCESS;
    },
    random_get: (ptr, len) => {
      const target = state.memory().slice(n(ptr), n(len));
      for (let at = 0; at < target.byteLength; at += MAX_RANDOM_CHUNK) randomFillSync(target.subarray(at, at + MAX_RANDOM_CHUNK));
      return Errno.SUCCESS;
    },
    proc_exit: (code) => {
      throw new WasiExit(n(code));
    },
    proc_raise: () => Errno.NOSYS,
    sched_yield: () => Errno.SUCCESS,
    // Nothing to wait on: no sockets, and a clock subscription would be a timer.
    poll_oneoff: () => Errno.NOSYS,
    sock_accept: (fd) => notSocket(state, fd),
    sock_recv: (fd) => notSocket(state, fd),
    sock_send: (fd) => notSocket(state, fd),
    sock_shutdown: (fd) => notSocket(state, fd),
  };
}

/** No descriptor is ever a socket: `EBADF` if closed, else `ENOTSOCK`. */
function notSocket(state: WasiState, fd: number | bigint): number {
  state.table.get(n(fd));
  return Errno.NOTSOCK;
}
