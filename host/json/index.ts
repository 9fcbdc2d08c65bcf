export { describeIssues, issueLines, jsonPath } from './issues.ts';
export type { Issue } from './issues.ts';
export { parseJsonText, readJsonFile } from './json-file.ts';
