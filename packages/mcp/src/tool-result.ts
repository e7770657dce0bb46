import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ERROR_WORD, withRetryTime, withoutErrorWord } from '@socialpub/core/rate-limited';
import { nextStep, type ToolErrorInfo } from './next-step';

/** A successful tool result: the typed data as structuredContent, and a short text rendering. */
export function toolResult(data: object, text: string): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: data as Record<string, unknown> };
}

/** What a thrown value tells about the API error behind it (the SDK's APIError and BackendError carry these fields). */
export function errorInfo(error: unknown): ToolErrorInfo {
  const e = error as Partial<ToolErrorInfo> & { name?: unknown };
  if (error !== null && typeof error === 'object' && typeof e.code === 'string' && typeof e.message === 'string') {
    return {
      status: typeof e.status === 'number' ? e.status : undefined,
      code: e.code,
      message: e.message,
      details: Array.isArray(e.details) ? e.details : undefined,
      retryAfter: typeof e.retryAfter === 'number' ? e.retryAfter : undefined,
    };
  }
  if (e?.name === 'AbortError') return { status: 499, code: 'cancelled', message: 'the request was cancelled' };
  return { status: 500, code: 'internal', message: error instanceof Error ? error.message : String(error) };
}

/**
 * An expected failure as a tool result (`isError: true`), never a protocol error, so the
 * agent sees the API's code, message, field details and what to do next: as readable lines,
 * then as a JSON text block `{"error": {...}}`. Not as structuredContent: clients check
 * that against the tool's output schema even on errors (the official SDK's Client does).
 */
export function toolError(error: unknown, now: number = Date.now()): CallToolResult {
  const info = errorInfo(error);
  const next = nextStep(info);
  const details = info.details ?? [];
  // A 429 says what ran out and when to try again, local time included (core's withRetryTime), as the CLI and the SDK say it.
  const message = info.code === 'rate_limited' ? withRetryTime(info.message, info.retryAfter, now) : withoutErrorWord(info.message);
  // The one word our tools put before a failure; the code follows in brackets for the agent's switch.
  const lines = [`${ERROR_WORD} ${message} [${info.code}]`, ...details.map((d) => `- ${d.path}: ${d.message}`), `next step: ${next}`];
  const body = {
    error: {
      code: info.code,
      message,
      details,
      next_step: next,
      ...(info.status !== undefined ? { status: info.status } : {}),
      ...(info.retryAfter !== undefined ? { retry_after: info.retryAfter } : {}),
    },
  };
  return {
    isError: true,
    content: [
      { type: 'text', text: lines.join('\n') },
      { type: 'text', text: JSON.stringify(body) },
    ],
  };
}
