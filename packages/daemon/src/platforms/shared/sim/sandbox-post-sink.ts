import type { Platform } from '@socialpub/core';
import type { SandboxPostRecord, SandboxStore } from '../../../store/sandbox-store';
import { sandboxCallerKey } from './sandbox-caller';

/** A post a simulator made (what `socialpub sandbox posts` lists): the record sandbox_posts keeps. */
export type SimulatedPost = SandboxPostRecord;

/** Records that a simulator deleted a post (platform, post id, epoch ms). */
export type PostRemovalSink = (platform: Platform, postId: string, at: number) => void;

/** Marks a simulated post deleted in sandbox_posts, so `socialpub sandbox posts` shows it removed. */
export function sandboxPostRemoval(store: SandboxStore | null): PostRemovalSink | undefined {
  if (!store) return undefined;
  return (platform, postId, at) => store.posts.markRemoved(platform, postId, at);
}

/** Persists simulated posts into sandbox_posts, so `socialpub sandbox posts` lists them across restarts. */
export function sandboxPostSink(store: SandboxStore | null): ((post: SimulatedPost) => void) | undefined {
  if (!store) return undefined;
  // The account key: the sandbox connection whose request made the post (sandbox-caller.ts).
  return (p) => store.posts.add(p, sandboxCallerKey());
}
