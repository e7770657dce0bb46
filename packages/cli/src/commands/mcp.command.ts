import { examples, type Kit } from '../command-kit';
import type { Program } from '../program';

/** `socialpub mcp`: the MCP tools on stdio for a local agent (docs/mcp.md). */
export function defineMcp(program: Program, kit: Kit): void {
  examples(
    program
      .command('mcp')
      .description('serve the MCP tools on stdio for a local agent (Claude Code/Desktop, Cursor, VS Code); see docs/mcp.md')
      .action(async () => (await import('./mcp')).mcpServe(kit.ctx())),
    ['socialpub mcp --base-url http://127.0.0.1:8787 --api-key sp_...', 'claude mcp add socialpub -- socialpub mcp'],
  );
}
