import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HANDLER_EXPORTS } from '../../pdk/index.ts';
import { EXPORT_NAMES } from '../../host/runner/channel.ts';
import { SEAMS, SEAM_IDS } from '../../host/seams/index.ts';
import { renderGenerated } from '../../host/seams/generate.ts';

describe('generated wire contract and PDK types', () => {
  it('are up to date with host/seams (run `npm run gen` after changing a seam)', async () => {
    const files = await renderGenerated();
    for (const [path, expected] of Object.entries(files)) {
      const actual = readFileSync(path, 'utf8');
      expect(actual, `${relative(process.cwd(), path)} is stale: run npm run gen`).toBe(expected);
    }
  });

  it('the JSON Schema describes every seam with its export and decision', async () => {
    const files = await renderGenerated();
    const contract = JSON.parse(Object.values(files)[0] ?? '{}') as {
      seams: Record<string, { export: string; kind: string }>;
      $defs: Record<string, unknown>;
    };
    expect(Object.fromEntries(Object.entries(contract.seams).map(([id, seam]) => [id, [seam.kind, seam.export]]))).toEqual({
      'agent/session-start': ['notify', 'session_start'],
      'agent/prompt-submit': ['waterfall', 'prompt_submit'],
      'tools/pre-execute': ['waterfall', 'pre_tool'],
      'tools/post-execute': ['waterfall', 'post_tool'],
      'agent/turn-continuation': ['waterfall', 'turn_continuation'],
      'tools/permission-request': ['waterfall', 'permission_request'],
      'agent/subagent-start': ['notify', 'subagent_start'],
      'agent/subagent-stop': ['waterfall', 'subagent_stop'],
      'agent/notification': ['notify', 'notification'],
      'agent/pre-compact': ['waterfall', 'pre_compact'],
      'agent/session-end': ['notify', 'session_end'],
    });
    expect(contract.$defs.PreToolDecision).toMatchObject({ oneOf: expect.any(Array) });
  });

  it('the names every layer derives from agree with SEAMS: export index, handler, export', () => {
    // The runner names an export by its index in EXPORT_NAMES; the PDK maps handlers to exports.
    SEAM_IDS.forEach((id, index) => {
      expect(EXPORT_NAMES[index], id).toBe(SEAMS[id].exportName);
    });
    expect(EXPORT_NAMES).toHaveLength(SEAM_IDS.length);
    expect(Object.values(HANDLER_EXPORTS).sort()).toEqual(SEAM_IDS.map((id) => SEAMS[id].exportName).sort());
    expect(HANDLER_EXPORTS.preTool).toBe('pre_tool');
    expect(HANDLER_EXPORTS.turnContinuation).toBe('turn_continuation');
  });
});
