/**
 * A stand-in for a `hookbox serve` that hangs: the in-process agents (OpenCode,
 * Kilo CLI) give a plugin no deadline, so their suites check that the
 * plugin's own deadline answers closed when the server never does.
 */
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';

/** A wedged `hookbox serve` on a unix socket: a request whose body `hangs` is never answered; any other gets "no opinion". */
export function wedgedServer(path: string, hangs: (body: string) => boolean): Promise<{ path: string; close(): Promise<void> }> {
  const open = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      if (!hangs(body)) res.writeHead(200, { 'x-hookbox-exit': '0' }).end('');
    });
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
