/**
 * Stand-ins for a `hookbox serve` on a unix socket. The in-process agents (OpenCode,
 * Kilo CLI) give a plugin no deadline, so their suites check that the plugin's own
 * deadline answers closed when the server never does (`wedgedServer`); the plugin
 * client's suite scripts other answers, garbage included (`socketServer`).
 */
import { createServer, type ServerResponse, type Server } from 'node:http';
import type { Socket } from 'node:net';

export interface SocketServer {
  readonly path: string;
  /** Destroys open connections (a wedged request included), then closes the server. */
  close(): Promise<void>;
}

/** An HTTP server on the unix socket `path`: each request, once its body is read, goes to `respond` (which may never answer). */
export function socketServer(path: string, respond: (res: ServerResponse, body: string) => void): Promise<SocketServer> {
  const open = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => respond(res, body));
  });
  server.on('connection', (socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
  });
  return new Promise((resolvePromise, reject) => {
    server.on('error', reject);
    server.listen(path, () =>
      resolvePromise({
        path,
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
