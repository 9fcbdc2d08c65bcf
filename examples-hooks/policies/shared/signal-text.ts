/**
 * A signal's output as text for the model: the operator's program printed it
 * (a linter, a test runner), so it is untrusted — terminal escapes, control
 * and bidi characters go, and it is cut to a budget. Shared by the policies
 * that pass a signal's output on (post-edit-check, test-gate). No PDK globals.
 */

// CSI and OSC sequences, then every C0/C1 control but tab and newline, then bidi overrides.
const ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-_]?/g;
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * The output of a run (stdout, then stderr when it has any), cleaned and cut to `maxChars`.
 *
 * @example
 * ```ts
 * signalText({ stdout: '\u001b[31merror\u001b[0m a.ts:1', stderr: '', truncated: false }, 100); // 'error a.ts:1'
 * ```
 */
export function signalText(output: { readonly stdout: string; readonly stderr: string; readonly truncated: boolean }, maxChars: number): string {
  const parts = [output.stdout, output.stderr].map((text) => text.replace(ESCAPES, '').replace(/\r\n?/g, '\n').replace(CONTROLS, '').trim()).filter((text) => text !== '');
  const text = parts.join('\n');
  if (text.length <= maxChars && !output.truncated) return text;
  return `${text.slice(0, maxChars)}\n… (output cut)`;
}
