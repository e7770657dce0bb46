import type { PostSource } from '@socialpub/core';
import type { User } from '../store/users';

/**
 * Whether content needs a person's approval before it is published: the post asked for it
 * (require_approval), the user's approval workflow is on, or agent-approval is on and the
 * content was written by an agent through MCP (`writer` mcp). The same rule holds a new
 * post (build-job.ts) and an edit of an approved one (jobs-service.ts `update`): approval
 * binds to what was approved, so an edited caption or options is new content to approve
 * (docs/api.md, "Approval binds to what was approved").
 */
export function needsApproval(user: User, requireApproval: boolean, writer: PostSource): boolean {
  return requireApproval || user.approvalWorkflow || heldForAgent(user, writer);
}

/** Held because an agent wrote it while agent-approval is on: a person must approve it. */
export const heldForAgent = (user: User, writer: PostSource) => writer === 'mcp' && user.agentApproval;
