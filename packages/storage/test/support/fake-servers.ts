import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/** A port on 127.0.0.1 that nothing listens on (it was free a moment ago). */
export const closedPort = async (): Promise<number> => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
};

export interface RunningServer {
  readonly endpoint: string;
  close(): Promise<void>;
}

const running = async (server: Server, sockets: Set<Socket>): Promise<RunningServer> => {
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
};

/** Accepts connections and never answers: a hung server or a black-holing proxy. */
export const silentServer = (): Promise<RunningServer> => running(createServer(), new Set());

/** An HTTP server that is not S3: every request gets a 404 HTML page. */
export const notS3Server = (): Promise<RunningServer> =>
  running(
    createHttpServer((_request, response) => {
      response.writeHead(404, { 'content-type': 'text/html' });
      response.end('<html><body>Not Found</body></html>');
    }),
    new Set(),
  );
