import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readSessionLog } from '../../host/log/index.ts';
import { summarize } from '../../host/report/summarize.ts';

/** Every session log `hookbox serve` wrote for a project: the raw text of all of them, and the report's totals over them. */
export function projectSessionLogs(project: string): { text: string; replaced: number; blocked: number } {
  const dir = join(project, '.hookbox', 'sessions');
  const files = existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.jsonl')).map((name) => join(dir, name)) : [];
  const logs = files.map((file) => ({ file, ...readSessionLog(file) }));
  const { totals } = summarize(logs.map((log) => ({ file: log.file, events: log.events, tornBytes: 0 })));
  return { text: files.map((file) => readFileSync(file, 'utf8')).join('\n'), replaced: totals.replacedToolResults, blocked: totals.blockedToolResults };
}
