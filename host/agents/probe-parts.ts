/** The fields of a probe event every agent of the Claude Code format sends (`hookbox doctor`). */
export function probeCommon(cwd: string, event: string): Record<string, unknown> {
  return { session_id: 'hookbox-doctor-probe', transcript_path: null, cwd, hook_event_name: event, permission_mode: 'default' };
}
