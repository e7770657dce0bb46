import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { VERSION, platformsInWords, type KeyScope, type SchemaMap } from '@socialpub/core';
import type { LocalFiles, SocialPubBackend } from './backend';
import { fileRoots } from './file-roots';
import { guardToolCalls } from './tool-call-guard';
import { registerResources, type ResourceNotifier } from './resources';
import { toolAllowed } from './tool-routes';
import { registerTools } from './tools';
import type { MediaWaitOptions } from './wait-for-media';

/** Most array elements plus object members one tools/call may carry: far above any real post, far below a payload meant to hurt. */
export const MAX_TOOL_INPUT_ELEMENTS = 5_000;

export interface SocialPubMcpOptions {
  backend: SocialPubBackend;
  /** Only where the server runs beside the agent (stdio): enables upload_file. */
  localFiles?: LocalFiles | undefined;
  /**
   * Where upload_file may read (file-roots.ts): directories the user configured (they
   * replace the client's roots) and the directory relative paths start from. Without
   * configured directories, the roots the client declares; without those, nothing.
   */
  fileRoots?: { configured: readonly string[]; cwd: string } | undefined;
  mediaWait?: MediaWaitOptions | undefined;
  /**
   * true: the caller feeds `notifier` from the daemon's event stream (notifyChanges), which
   * reports the session's own changes too, so the tools do not notify them a second time.
   */
  changesFromEvents?: boolean | undefined;
  /** The schemas the tools' input and output schemas come from (default core's SCHEMAS; tools.ts). */
  schemas?: SchemaMap | undefined;
  /**
   * The scope of the key the tools call with, where it is known (the daemon's /mcp): tools
   * whose route that scope does not reach are not offered (tool-routes.ts). Unknown (stdio,
   * which starts before the daemon may answer): every tool, and the daemon refuses the calls
   * the key may not make (403 insufficient_scope, a tool error).
   */
  scope?: KeyScope | undefined;
}

export const INSTRUCTIONS = `socialpub publishes posts to ${platformsInWords()} through the user's own daemon.
Start with list_platforms (content types, limits, your connections). Check a post with validate_post, then publish_post.
Media: prepare_media (URLs) or upload_file (a local file, stdio only) give prepared URLs for media_urls.
Posts made here may wait for a person's approval (agent-approval): publish_post's result says so; get_post shows progress.
Failures come back as tool errors with a code, the fields at fault and a next step.`;

/** Tool hooks when the event stream reports every change. */
const QUIET: ResourceNotifier = { postChanged: () => {}, postsListChanged: () => {}, platformsChanged: () => {}, inboxChanged: () => {} };

/**
 * A socialpub MCP server over `backend`: every tool and resource, defined once for both
 * transports. Connect it to a transport (stdio, Streamable HTTP); `notifier` tells
 * subscribed clients about changed posts.
 */
export function createSocialPubMcpServer({ backend, localFiles, fileRoots: roots, mediaWait, changesFromEvents, schemas, scope }: SocialPubMcpOptions): { server: McpServer; notifier: ResourceNotifier } {
  const server = new McpServer(
    { name: 'socialpub', title: 'socialpub', version: VERSION },
    { instructions: INSTRUCTIONS, maxToolInputElements: MAX_TOOL_INPUT_ELEMENTS },
  );
  // Malformed tools/call params are -32602 with a readable message, on every transport.
  const connect = server.connect.bind(server);
  server.connect = (transport) => connect(guardToolCalls(transport));
  const notifier = registerResources(server, backend);
  let gatedFiles: LocalFiles | undefined;
  if (localFiles) {
    const gate = fileRoots({ server: server.server, configured: roots?.configured ?? [], cwd: roots?.cwd ?? process.cwd() });
    gatedFiles = { upload: async (path, options) => localFiles.upload(await gate.check(path), options) };
  }
  if (scope !== undefined) {
    // Every tool is defined once (tools.ts); those the key's scope cannot call are dropped
    // as they are registered, before any client connects, so tools/list never shows them.
    const register = server.registerTool.bind(server) as (name: string, ...rest: unknown[]) => ReturnType<McpServer['registerTool']>;
    server.registerTool = ((name: string, ...rest: unknown[]) => {
      const tool = register(name, ...rest);
      if (!toolAllowed(name, scope)) tool.remove();
      return tool;
    }) as McpServer['registerTool'];
  }
  registerTools(server, {
    schemas,
    backend,
    localFiles: gatedFiles,
    mediaWait,
    hooks: changesFromEvents ? QUIET : notifier,
  });
  return { server, notifier };
}
