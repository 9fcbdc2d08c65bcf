// What `hookbox hook <agent>` answers when it gives up without a decision
// (its deadline passed, the server answered nothing usable, its own error):
// each seam's closed form in the agent's own format — a tool call denied, a
// prompt blocked, a result withheld. The forms and the agent → event table
// are data in host/wire.cjs (the sh and native clients get them generated);
// tests/unit/hook-client-closed.spec.ts holds them equal to the bridges'
// `failClosed` (host/agents/*/bridge.ts) for every agent and event.
'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS on purpose: no ESM loader on the hot path */
const { CLOSED, FORMS, LET_THROUGH, closedForm, fill, plain, sniffEvent } = require('../wire.cjs');

/** The closed answer of `agent` for `event` (undefined when unread), the reason prefixed `hookbox: `. */
function closedAnswer(agent, event, reason) {
  const text = `hookbox: ${plain(reason)}`;
  const form = closedForm(agent, event);
  if (form === LET_THROUGH) return { exitCode: 0, stdout: '', stderr: '' };
  if (form !== undefined) return { exitCode: 0, stdout: `${JSON.stringify(fill(FORMS[form], text))}\n`, stderr: '' };
  return { exitCode: 2, stdout: '', stderr: `${text}\n` };
}

module.exports = { CLOSED, closedAnswer, plain, sniffEvent };
