import { collect, examples, type Kit } from '../command-kit';
import type { Program } from '../program';

/** `socialpub mcp`: the MCP tools on stdio for a local agent (docs/mcp.md). */
export function defineMcp(program: Program, kit: Kit): void {
  examples(
    program
      .command('mcp')
      .description('serve the MCP tools on stdio for a local agent (Claude Code/Desktop, Cursor, VS Code); see docs/mcp.md')
      // The examples use the global --base-url and --api-key: the help lists them too.
      .configureHelp({ ...program.configureHelp(), showGlobalOptions: true })
      .option(
        '--file-root <dir>',
        'a folder upload_file may read files from (repeatable; env SOCIALPUB_MCP_FILE_ROOT). Default: the roots your MCP client declares',
        collect,
      )
      .action(async (o: { fileRoot?: string[] }) => (await import('./mcp')).mcpServe(kit.ctx(), { fileRoots: o.fileRoot ?? [] })),
    ['socialpub mcp --base-url http://127.0.0.1:8787 --api-key sp_...', 'claude mcp add socialpub -- socialpub mcp', 'socialpub mcp --file-root ~/Pictures/to-post'],
  );
}
