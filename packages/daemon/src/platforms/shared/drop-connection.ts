import type { Context } from 'hono';

type NodeEnv = { incoming?: { socket?: { destroy(): void }; destroy?(): void } };

/** Drops the client connection when served by @hono/node-server; false elsewhere. */
export function dropConnection(c: Context): boolean {
  const env = c.env as NodeEnv | undefined;
  const socket = env?.incoming?.socket;
  if (socket) {
    socket.destroy();
    return true;
  }
  return false;
}
