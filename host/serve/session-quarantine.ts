import type { ListenerOutcome, SeamCall, SeamListener } from '../events/index.ts';
import { type DecisionOf, type HookFault, type SeamId, hookFault } from '../seams/index.ts';

/** A listener whose quarantine counts per session; `forget` drops a closed session's count. */
export interface SessionQuarantined extends SeamListener {
  forget(sessionId: string): void;
}

/**
 * Quarantine per agent session instead of per hook. A server outlives
 * sessions: one session that keeps making a hook fault (a hostile repo, a
 * runaway) must not switch that hook off for every other session. After
 * `after` consecutive faults in one session, that session's calls fault at
 * once (without running the hook); other sessions are not affected. The
 * runner's own per-hook quarantine is disabled for hooks served this way.
 */
export function quarantinePerSession(listener: SeamListener, after: number): SessionQuarantined {
  const faults = new Map<string, { count: number; last: HookFault }>();
  return {
    name: listener.name,
    ...(listener.digest !== undefined && { digest: listener.digest }),
    seams: listener.seams,
    ...(listener.tools !== undefined && { tools: listener.tools }),
    ...(listener.failPolicy !== undefined && { failPolicy: listener.failPolicy }),
    ...(listener.sandbox !== undefined && { sandbox: listener.sandbox }),
    async invoke<S extends SeamId>(call: SeamCall<S>): Promise<ListenerOutcome<DecisionOf<S>>> {
      const id = call.session.id;
      const record = faults.get(id);
      if (record !== undefined && record.count >= after) {
        return {
          type: 'fault',
          fault: hookFault(record.last.kind, `quarantined in this session after ${record.count} consecutive faults (last: ${record.last.message})`),
        };
      }
      const outcome = await listener.invoke(call);
      if (outcome.type === 'fault') faults.set(id, { count: (record?.count ?? 0) + 1, last: outcome.fault });
      else if (record !== undefined) faults.delete(id);
      return outcome;
    },
    forget(sessionId: string): void {
      faults.delete(sessionId);
    },
  };
}
