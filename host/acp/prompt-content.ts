import type { ContentBlock } from '@agentclientprotocol/sdk';

/**
 * The text of an ACP prompt, as one hookbox prompt (what prompt-submit hooks
 * inspect and the model reads). Text blocks are kept as they are; a resource
 * link becomes a reference line; an embedded text resource is inlined under
 * its URI so hooks see everything the model will. Blocks hookbox does not
 * advertise (images, audio, binary resources) are named, not dropped
 * silently, so the model knows something was attached.
 */
export function promptText(blocks: readonly ContentBlock[]): string {
  const parts = blocks.map((block): string => {
    switch (block.type) {
      case 'text':
        return block.text;
      case 'resource_link':
        return `[${block.title ?? block.name}](${block.uri})`;
      case 'resource':
        return 'text' in block.resource
          ? `Contents of ${block.resource.uri}:\n${block.resource.text}`
          : `[binary resource ${block.resource.uri} omitted]`;
      case 'image':
        return '[image omitted: hookbox does not accept images]';
      case 'audio':
        return '[audio omitted: hookbox does not accept audio]';
    }
  });
  return parts.join('\n');
}
