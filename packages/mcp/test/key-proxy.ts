import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback HTTP proxy in front of the daemon that adds the API key to every request: for
 * MCP clients that cannot send headers of their own (the MCP conformance suite). Streams
 * both ways (SSE responses pass through as they come); everything else — Host, Origin,
 * Mcp-Session-Id — is forwarded as sent, so the daemon's checks still see the client's.
 */
export async function startKeyProxy(target: string, apiKey: string): Promise<{ url: string; close(): Promise<void> }> {
  const upstream = new URL(target);
  const server: Server = createServer((req, res) => {
    const headers = { ...req.headers, authorization: `Bearer ${apiKey}` };
    const out = request(
      { hostname: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    res.on('close', () => out.destroy());
    req.pipe(out);
  });
  server.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
