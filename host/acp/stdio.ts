import { Readable, Writable } from 'node:stream';
import { type Stream, ndJsonStream } from '@agentclientprotocol/sdk';
import type { AcpAgent } from './agent.ts';

/**
 * ACP's stdio transport: newline-delimited JSON-RPC, requests on stdin,
 * responses and notifications on stdout. stdout therefore belongs to the
 * protocol alone; anything else must write to stderr.
 */
export function acpStdioStream(input: Readable = process.stdin, output: Writable = process.stdout): Stream {
  return ndJsonStream(Writable.toWeb(output), Readable.toWeb(input) as ReadableStream<Uint8Array>);
}

/**
 * Serves `agent` on `stream` until the client goes away (stdin closes), then
 * closes every session it opened, cancelling turns still running.
 */
export async function serveAcp(agent: AcpAgent, stream: Stream): Promise<void> {
  const connection = agent.app.connect(stream);
  try {
    await connection.closed;
  } finally {
    await agent.close();
  }
}
