import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * Answers a `tools/call` whose params are malformed (params not an object, `name` not a
 * string, `arguments` present but not an object) with -32602 Invalid params and a
 * readable message, before the SDK sees it. The SDK parses a request against its schema
 * inside the handler wrapper and reports the ZodError as -32603 Internal error with the
 * raw issue dump as message (issue 28).
 *
 * Installed on the transport itself (an accessor for `onmessage`, which the SDK's
 * Protocol.connect sets), so it sees every message before the Protocol does.
 */
export function guardToolCalls<T extends Transport>(transport: T): T {
  let inner: Transport['onmessage'];
  const guarded: Transport['onmessage'] = (message, extra) => {
    const problem = toolCallProblem(message);
    if (problem === null) return inner?.(message, extra);
    void transport
      .send({ jsonrpc: '2.0', id: (message as { id: string | number }).id, error: { code: ErrorCode.InvalidParams, message: `Invalid params: ${problem}` } } as JSONRPCMessage)
      .catch(() => undefined);
  };
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    enumerable: true,
    get: () => (inner ? guarded : undefined),
    set: (fn: Transport['onmessage']) => {
      inner = fn;
    },
  });
  return transport;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/** What is wrong with a tools/call request's params (null: nothing this guard checks). */
function toolCallProblem(message: JSONRPCMessage): string | null {
  const m = message as { method?: unknown; id?: unknown; params?: unknown };
  if (m.method !== 'tools/call' || m.id === undefined) return null;
  const params = m.params;
  if (params === null || typeof params !== 'object' || Array.isArray(params)) return `tools/call params must be an object with the tool's name and arguments (got ${kindOf(params)})`;
  const { name, arguments: args } = params as { name?: unknown; arguments?: unknown };
  if (typeof name !== 'string') return `tools/call params.name must be the tool's name as a string (got ${kindOf(name)})`;
  if (args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args))) {
    return `tools/call arguments must be an object of the tool's parameters, e.g. {"job_id": "job_…"} (${name} got ${kindOf(args)})`;
  }
  return null;
}
