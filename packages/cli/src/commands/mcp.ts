import { delimiter, resolve } from 'node:path';
import type { Ctx } from '../context';

/** What `socialpub mcp` needs besides the context. */
export interface McpServeOptions {
  /** --file-root: folders upload_file may read (besides SOCIALPUB_MCP_FILE_ROOT); none: the client's roots. */
  fileRoots?: string[];
}

const JSONRPC_PARSE_ERROR = -32700;
const JSONRPC_INVALID_REQUEST = -32600;

/**
 * `socialpub mcp`: the MCP server on stdio, for local agents (Claude Code/Desktop, Cursor,
 * VS Code). Tools call the daemon through @socialpub/sdk with the saved address and key
 * (flags and SOCIALPUB_API_KEY override) and `X-SocialPub-Source: mcp`. stdout carries
 * JSON-RPC only; everything for a person goes to stderr. Runs until stdin closes.
 */
export async function mcpServe(ctx: Ctx, options: McpServeOptions = {}): Promise<void> {
  const [{ SocialPub, APIConnectionError, APIError }, { BackendError, createSocialPubMcpServer, notifyChanges, NOTIFYING_EVENT_TYPES }, { StdioServerTransport }, baseUrl, apiKey] = await Promise.all([
    import('@socialpub/sdk'),
    import('@socialpub/mcp'),
    import('@modelcontextprotocol/sdk/server/stdio.js'),
    ctx.baseUrl(),
    ctx.apiKey(),
  ]);
  const say = (line: string) => ctx.io.stderr.write(`socialpub mcp: ${line}\n`);
  const client = new SocialPub({ baseUrl, apiKey, headers: { 'X-SocialPub-Source': 'mcp' }, maxRetries: 1, timeout: 60_000 });

  try {
    const health = await client.health({ timeout: 5_000, maxRetries: 0 });
    say(`serving on stdio; daemon ${health.version} at ${baseUrl}`);
  } catch (error) {
    // Keep serving: the agent sees "start the daemon: socialpub up" in every tool result until it runs.
    if (error instanceof APIConnectionError) say(`no socialpub daemon answers at ${baseUrl}: start it with \`socialpub up\` (tools report this until it runs)`);
    else say(`the daemon at ${baseUrl} did not answer its health check (${(error as Error).message})`);
  }

  const localFiles = {
    async upload(path: string, opts: { signal?: AbortSignal | undefined; filename?: string | undefined } = {}) {
      const full = resolve(ctx.io.cwd, path);
      try {
        return await client.media.upload(full, { signal: opts.signal, ...(opts.filename ? { filename: opts.filename } : {}) });
      } catch (error) {
        // A file this machine cannot read is the caller's mistake, said as such (not a daemon problem).
        const code = (error as { code?: unknown }).code;
        if (error instanceof TypeError || code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR') {
          throw new BackendError({ status: 400, code: 'invalid_request', message: `cannot read ${full}: ${(error as Error).message}`, details: [{ path: 'path', message: (error as Error).message }] });
        }
        throw error;
      }
    },
  };
  // Folders upload_file may read: --file-root, then SOCIALPUB_MCP_FILE_ROOT (several joined by the path delimiter).
  const configuredRoots = [...(options.fileRoots ?? []), ...(ctx.io.env.SOCIALPUB_MCP_FILE_ROOT ?? '').split(delimiter)]
    .filter((d) => d.trim() !== '')
    .map((d) => resolve(ctx.io.cwd, d));
  say(configuredRoots.length > 0 ? `upload_file reads files under ${configuredRoots.join(', ')}` : 'upload_file reads files under the roots the MCP client declares');
  const { server, notifier } = createSocialPubMcpServer({
    backend: client,
    localFiles,
    fileRoots: { configured: configuredRoots, cwd: ctx.io.cwd },
    changesFromEvents: true,
  });
  const transport = new StdioServerTransport(ctx.io.stdin, ctx.io.stdout);
  const closed = new Promise<void>((done) => {
    ctx.io.stdin.once('end', done);
    ctx.io.stop?.addEventListener('abort', () => done(), { once: true });
  });
  // A line that is not JSON-RPC gets the JSON-RPC error the SDK leaves unsent; a line past
  // the transport's 10 MB buffer ends the session, said on stderr.
  server.server.onerror = (error) => {
    if (error instanceof SyntaxError) {
      void transport.send({ jsonrpc: '2.0', id: null, error: { code: JSONRPC_PARSE_ERROR, message: `Parse error: ${error.message}` } } as never);
    } else if (error.name === 'ZodError') {
      void transport.send({ jsonrpc: '2.0', id: null, error: { code: JSONRPC_INVALID_REQUEST, message: 'Invalid Request: not a JSON-RPC 2.0 message' } } as never);
    } else {
      say(error.message);
    }
  };
  await server.connect(transport);
  // Resource notifications for every change the user's posts go through (REST, publisher,
  // CLI, other sessions): the daemon's event stream, which reconnects and resumes by itself
  // (a daemon not yet running is waited for).
  const feed = new AbortController();
  const following = (async () => {
    try {
      for await (const event of client.events.stream({ types: NOTIFYING_EVENT_TYPES, signal: feed.signal })) notifyChanges(notifier, [event]);
    } catch (error) {
      say(`resource notifications stopped: ${error instanceof APIError ? `${error.code}: ${error.message}` : (error as Error).message}`);
    }
  })();
  const done = new Promise<void>((r) => {
    const previous = transport.onclose;
    transport.onclose = () => {
      previous?.();
      r();
    };
  });
  await Promise.race([closed, done]);
  feed.abort();
  await following;
  await server.close();
}
