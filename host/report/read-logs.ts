import { statSync } from 'node:fs';
import { SessionLogError } from '../errors.ts';
import { readSessionLog } from '../log/index.ts';
import type { ReportLog } from './summarize.ts';

/**
 * Reads the session logs a report is made from, with the reader of
 * `host/log` (a torn last line is skipped and counted). A missing file, a
 * folder, an empty file or a line that is not a session event is a
 * `SessionLogError` naming the file (and the line).
 */
export function readReportLogs(files: readonly string[]): ReportLog[] {
  if (files.length === 0) throw new SessionLogError('no session log given');
  return files.map((file) => {
    let isFile: boolean;
    try {
      isFile = statSync(file).isFile();
    } catch (error) {
      throw new SessionLogError(`session log ${file} does not exist`, { cause: error });
    }
    if (!isFile) throw new SessionLogError(`${file}: not a file`);
    const { events, tornBytes } = readSessionLog(file);
    if (events.length === 0) throw new SessionLogError(`${file}: not a session log (no events)`);
    return { file, events, tornBytes };
  });
}
