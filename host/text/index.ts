export {
  DEFAULT_MAX_LENGTH,
  DEFAULT_MAX_LINES,
  ELLIPSIS,
  isPrintable,
  printable,
  printableLines,
} from './untrusted-text.ts';
export { inertMarkdown, inertMarkdownLine } from './inert-markdown.ts';
export { printableJson } from './printable-json.ts';
export type { PrintableLinesOptions, PrintableOptions } from './untrusted-text.ts';
