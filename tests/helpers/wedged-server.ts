/**
 * Stand-ins for a `hookbox serve` on a unix socket. Each proves itself as
 * `hookbox serve` does (a key in `<socket>.key`, a proof on each answer:
 * host/serve/listener-proof.ts), so the clients take its answers for the
 * server's; tests/helpers/client-failure-cases.ts has the ones that do not. The in-process agents (OpenCode,
 * Kilo CLI) give a plugin no deadline, so their suites check that the plugin's own
 * deadline answers closed when the server never does (`wedgedServer`); the plugin
 * client's suite scripts other answers, garbage included (`socketServer`).
 */
import { createServer, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { NONCE_HEADER, PROOF_HEADER, answerProof, requestNonce, writeProofKey } from '../../host/serve/listener-proof.ts';

export interface SocketServer {
  readonly path: string;
  /** Connections accepted so far. */
  connections(): number;
  /** Destroys open connections (a wedged request included), then closes the server. */
  close(): Promise<void>;
}

/** An HTTP server on the unix socket `path`: each request, once its body is read, goes to `respond` (which may never answer). */
export function socketServer(path: string, respond: (res: ServerResponse, body: string) => void): Promise<SocketServer> {
  const open = new Set<Socket>();
  const key = writeProofKey(path);
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => respond(proving(key, req, res), body));
  });
  let count = 0;
  server.on('connection', (socket) => {
    count += 1;
    open.add(socket);
    socket.on('close', () => open.delete(socket));
  });
  return new Promise((resolvePromise, reject) => {
    server.on('error', reject);
    server.listen(path, () =>
      resolvePromise({
        path,
        connections: () => count,
        close: () =>
          new Promise<void>((done) => {
            for (const socket of open) socket.destroy();
            server.close(() => done());
          }),
      }),
    );
  });
}

/** A wedged `hookbox serve` on a unix socket: a request whose body `hangs` is never answered; any other gets "no opinion". */
export function wedgedServer(path: string, hangs: (body: string) => boolean): Promise<SocketServer> {
  return socketServer(path, (res, body) => {
    if (!hangs(body)) res.writeHead(200, { 'x-hookbox-exit': '0' }).end('');
  });
}

/**
 * `res` answering with the listener proof for the request's nonce: its
 * `writeHead` is held until `end` names the text (status, headers and the
 * `x-hookbox-exit`/`x-hookbox-refused` the proof covers).
 */
function proving(key: string, req: IncomingMessage, res: ServerResponse): ServerResponse {
  const nonce = requestNonce(req.headers[NONCE_HEADER]);
  if (nonce === undefined) return res;
  let held: { status: number; headers: OutgoingHttpHeaders } = { status: 200, headers: {} };
  const writeHead = res.writeHead.bind(res);
  const end = res.end.bind(res);
  res.writeHead = ((status: number, headers?: OutgoingHttpHeaders) => {
    held = { status, headers: headers ?? {} };
    return res;
  }) as ServerResponse['writeHead'];
  res.end = ((chunk?: string | Buffer) => {
    const text = chunk === undefined ? '' : chunk.toString();
    const exit = held.headers['x-hookbox-exit'] ?? res.getHeader('x-hookbox-exit');
    const refused = held.headers['x-hookbox-refused'] ?? res.getHeader('x-hookbox-refused');
    const proof = answerProof(key, nonce, Number(exit), typeof refused === 'string' ? refused : '-', text);
    writeHead(held.status, { ...held.headers, [PROOF_HEADER]: proof });
    return end(chunk);
  }) as ServerResponse['end'];
  return res;
}
