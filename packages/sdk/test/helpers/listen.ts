import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Listening {
  /** http://127.0.0.1:<port> */
  url: string;
  /** Cuts open connections (kept-alive ones too), then stops listening. */
  close(): Promise<void>;
}

/** Puts a test server on 127.0.0.1, port 0, and says where it is. */
export async function listenOnLoopback(server: Server, beforeClose: () => void = () => {}): Promise<Listening> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        beforeClose();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
