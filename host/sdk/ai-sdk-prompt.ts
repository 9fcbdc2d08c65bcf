import type { ModelMessage } from 'ai';

/** A user message's text as hookbox checks it, or why it cannot be read (then it is refused). */
export type ReadMessage = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly reason: string };

// Media types whose bytes are text a model reads as such: `text` (or `text/…`), JSON, XML, YAML, TOML, scripts.
const TEXT_MEDIA = /^(text(\/.*)?|application\/(json|xml|yaml|x-yaml|toml|javascript|ecmascript|x-sh|x-ndjson|sql|graphql|x-www-form-urlencoded)|[a-z]+\/[^;]*\+(json|xml|yaml))(\s*;.*)?$/i;

/** Whether a file part's media type is text hooks must see. */
export function isTextMedia(mediaType: unknown): boolean {
  return typeof mediaType === 'string' && TEXT_MEDIA.test(mediaType.trim());
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Bytes of DataContent (a base64 string, Uint8Array, ArrayBuffer, Buffer) as UTF-8 text, else why not. */
function decodeData(data: unknown): ReadMessage {
  let bytes: Uint8Array;
  if (typeof data === 'string') {
    const compact = data.replace(/\s+/g, '');
    if (compact.length % 4 !== 0 || !BASE64.test(compact)) return { ok: false, reason: 'its data is a string that is not base64' };
    bytes = Buffer.from(compact, 'base64');
  } else if (data instanceof Uint8Array) bytes = data;
  else if (data instanceof ArrayBuffer) bytes = new Uint8Array(data);
  else return { ok: false, reason: 'its data is a URL or a provider reference, whose bytes hookbox does not fetch' };
  try {
    return { ok: true, text: utf8.decode(bytes) };
  } catch {
    return { ok: false, reason: 'its bytes are not UTF-8 text' };
  }
}

/** A text-typed file part's text: the tagged `{type: "data" | "text"}` shapes or bare data. */
function readFileData(data: unknown): ReadMessage {
  if (data !== null && typeof data === 'object' && !(data instanceof Uint8Array) && !(data instanceof ArrayBuffer) && !(data instanceof URL)) {
    const tagged = data as { type?: unknown; data?: unknown; text?: unknown };
    if (tagged.type === 'text') return typeof tagged.text === 'string' ? { ok: true, text: tagged.text } : { ok: false, reason: 'its text is not a string' };
    if (tagged.type === 'data') return decodeData(tagged.data);
  }
  return decodeData(data);
}

/**
 * A user message's text: a string content, or its parts in order — text
 * parts, and file parts of a text media type decoded (the model reads
 * their text as much as the message's) — joined by newlines. A text file
 * part hookbox cannot read (a URL, a reference, bytes that are not UTF-8)
 * refuses the message. Image and other binary parts carry no text the
 * hooks read and pass.
 */
export function readUserMessage(message: Extract<ModelMessage, { role: 'user' }>): ReadMessage {
  if (typeof message.content === 'string') return { ok: true, text: message.content };
  if (!Array.isArray(message.content)) return { ok: false, reason: 'its content is neither a string nor a list of parts' };
  const texts: string[] = [];
  for (const [index, part] of (message.content as readonly unknown[]).entries()) {
    const { type, text, mediaType, data, filename } = (part ?? {}) as { type?: unknown; text?: unknown; mediaType?: unknown; data?: unknown; filename?: unknown };
    if (type === 'text') {
      if (typeof text !== 'string') return { ok: false, reason: `part ${index} is a text part without a string text` };
      texts.push(text);
    } else if (type === 'file' && typeof mediaType !== 'string') {
      return { ok: false, reason: `part ${index} is a file part without a media type` };
    } else if (type === 'file' && isTextMedia(mediaType)) {
      const read = readFileData(data);
      const name = `part ${index} (a ${String(mediaType)} file${typeof filename === 'string' ? ` ${JSON.stringify(filename)}` : ''})`;
      if (!read.ok) return { ok: false, reason: `${name}: ${read.reason}` };
      texts.push(read.text);
    }
  }
  return { ok: true, text: texts.join('\n') };
}
