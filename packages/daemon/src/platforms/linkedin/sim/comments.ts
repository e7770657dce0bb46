import type { Context, Hono } from 'hono';
import type { Clock } from '../../../util/clock';
import { simReaderReply } from '../../shared/sim/sim-conversation';
import type { SimMap } from '../../shared/sim/sim-state';
import { recordOf } from '../../shared/sim/simulator-recorder';

/** A comment as the simulator keeps it: on a post, or (with `parentComment`) a reply to a comment. */
export interface CommentRecord {
  urn: string;
  /** The post it is under. */
  object: string;
  actor: string;
  text: string;
  createdAt: number;
  /** The comment it answers (a nested reply). */
  parentComment?: string;
}

/** The simulator's pieces these routes need (simulator.ts owns them). */
export interface LinkedinCommentDeps {
  api: Hono;
  clock: Clock;
  comments: SimMap<CommentRecord>;
  atomic<T>(fn: () => T): T;
  nextId(): bigint;
  auth(c: Context): { sub: string; scope: string } | Response;
  fail(c: Context, status: number, code: string, message: string, serviceErrorCode?: number): Response;
  mayActAs(t: { sub: string; scope: string }, author: string): 'ok' | 'scope' | 'not-admin';
  denied(c: Context, why: 'scope' | 'not-admin', author: string, what: string): Response;
  /** A post's author and time, or undefined. */
  post(urn: string): { author: string; createdAt: number } | undefined;
  /** The member URN a sandbox reader comments as (made once). */
  readerActor(username: string, name: string): string;
  /** Whether an author is a sandbox connection's (a reader's posts get no reader comments). */
  isSandboxAuthor(author: string): boolean;
}

/** `urn:li:comment:(urn:li:activity:N,ID)` -> ID. */
const idOf = (urn: string) => /,(\d+)\)$/.exec(urn)?.[1] ?? urn;

/**
 * LinkedIn comments (socialActions, docs/reference/platforms.md §17): `POST
 * /rest/socialActions/{post urn}/comments` `{actor, object, message: {text}}` comments on a
 * post, and on a comment's URN with `parentComment` replies to it; `GET` on the same paths
 * (`start`, `count` up to 100) lists a post's top-level comments or a comment's replies, each
 * with `commentsSummary`; `DELETE …/comments/{id}?actor=` removes the actor's own comment.
 * Any member may comment as itself (w_member_social); a sandbox reader comments on a share
 * of the sandbox connections' posts (sim-conversation.ts).
 */
export function linkedinCommentRoutes(d: LinkedinCommentDeps): void {
  const { api, clock, comments, fail } = d;

  const replies = (urn: string) => [...comments.values()].filter((x) => x.parentComment === urn).sort((a, b) => a.createdAt - b.createdAt);
  const view = (x: CommentRecord) => ({
    id: idOf(x.urn),
    commentUrn: x.urn,
    $URN: x.urn,
    actor: x.actor,
    object: x.object,
    message: { text: x.text, attributes: [] },
    created: { actor: x.actor, time: x.createdAt },
    lastModified: { actor: x.actor, time: x.createdAt },
    ...(x.parentComment ? { parentComment: x.parentComment } : {}),
    commentsSummary: { totalFirstLevelComments: replies(x.urn).length, aggregatedTotalComments: replies(x.urn).length },
  });

  /** The reader's comment on a sandbox connection's post, made when its comments are first read at or after its time. */
  function readerComment(postUrn: string): void {
    const p = d.post(postUrn);
    if (!p || !d.isSandboxAuthor(p.author)) return;
    const plan = simReaderReply(postUrn, p.createdAt);
    if (!plan || clock.now() < plan.at) return;
    const actor = d.readerActor(plan.reader.username, plan.reader.name);
    if ([...comments.values()].some((x) => x.object === postUrn && x.actor === actor)) return;
    const urn = `urn:li:comment:(${postUrn.replace(/^urn:li:(share|ugcPost):/, 'urn:li:activity:')},${d.nextId()})`;
    comments.set(urn, { urn, object: postUrn, actor, text: plan.text, createdAt: plan.at });
  }

  /** What a path's URN names: a post, or a comment (then its post). */
  const target = (urn: string): { post: string; comment: CommentRecord | null } | null => {
    if (d.post(urn)) return { post: urn, comment: null };
    const x = comments.get(urn);
    return x ? { post: x.object, comment: x } : null;
  };

  api.post('/rest/socialActions/:urn/comments', async (c) => {
    const t = d.auth(c);
    if (t instanceof Response) return t;
    const urn = decodeURIComponent(c.req.param('urn'));
    const body = (await c.req.json().catch(() => undefined)) as { actor?: unknown; object?: unknown; message?: { text?: unknown }; parentComment?: unknown } | undefined;
    const rec = recordOf(c);
    if (rec) rec.body = body;
    const on = target(urn);
    if (!on) return fail(c, 404, 'NOT_FOUND', `Post ${urn} not found`, 100);
    if (typeof body?.actor !== 'string') return fail(c, 422, 'UNPROCESSABLE_ENTITY', '/actor :: field is required', 100);
    const activity = on.post.replace(/^urn:li:(share|ugcPost):/, 'urn:li:activity:');
    if (body.object !== undefined && body.object !== on.post && body.object !== activity) return fail(c, 422, 'UNPROCESSABLE_ENTITY', '/object :: must be the post commented on', 100);
    if (on.comment && body.parentComment !== on.comment.urn) return fail(c, 422, 'UNPROCESSABLE_ENTITY', '/parentComment :: must be the comment in the path', 100);
    if (on.comment?.parentComment) return fail(c, 422, 'UNPROCESSABLE_ENTITY', 'Replies can only be made to top-level comments', 100);
    const text = body.message?.text;
    if (typeof text !== 'string' || text.trim() === '') return fail(c, 422, 'UNPROCESSABLE_ENTITY', '/message/text :: field is required', 100);
    if (text.length > 1250) return fail(c, 422, 'UNPROCESSABLE_ENTITY', '/message/text :: a comment is at most 1,250 characters', 100);
    const may = d.mayActAs(t, body.actor);
    if (may !== 'ok') return d.denied(c, may, body.actor, 'socialActions.comments.CREATE');
    const made = `urn:li:comment:(${activity},${d.nextId()})`;
    const rec2: CommentRecord = { urn: made, object: on.post, actor: body.actor, text, createdAt: clock.now(), ...(on.comment ? { parentComment: on.comment.urn } : {}) };
    comments.set(made, rec2);
    return c.json(view(rec2), 201, { 'x-restli-id': made });
  });

  api.get('/rest/socialActions/:urn/comments', (c) => {
    const t = d.auth(c);
    if (t instanceof Response) return t;
    const urn = decodeURIComponent(c.req.param('urn'));
    const on = target(urn);
    if (!on) return fail(c, 404, 'NOT_FOUND', `Post ${urn} not found`, 100);
    const q = c.req.query();
    const count = q.count === undefined ? 10 : Number(q.count);
    const start = q.start === undefined ? 0 : Number(q.start);
    if (!Number.isInteger(count) || count < 1 || count > 100 || !Number.isInteger(start) || start < 0) return fail(c, 400, 'ILLEGAL_ARGUMENT', 'count must be 1 to 100 and start a non-negative integer', 100);
    if (!on.comment) d.atomic(() => readerComment(on.post));
    const rows = on.comment ? replies(on.comment.urn) : [...comments.values()].filter((x) => x.object === on.post && !x.parentComment).sort((a, b) => a.createdAt - b.createdAt);
    return c.json({ paging: { start, count, total: rows.length, links: [] }, elements: rows.slice(start, start + count).map(view) });
  });

  api.delete('/rest/socialActions/:urn/comments/:id', (c) => {
    const t = d.auth(c);
    if (t instanceof Response) return t;
    const on = target(decodeURIComponent(c.req.param('urn')));
    const x = on ? [...comments.values()].find((y) => idOf(y.urn) === c.req.param('id') && y.object === on.post) : undefined;
    if (!x) return fail(c, 404, 'NOT_FOUND', `Comment ${c.req.param('id')} not found`, 100);
    const actor = c.req.query('actor') ?? '';
    if (actor !== x.actor) return fail(c, 403, 'ACCESS_DENIED', 'Only the comment\'s actor may delete it (actor=)', 100);
    const may = d.mayActAs(t, actor);
    if (may !== 'ok') return d.denied(c, may, actor, 'socialActions.comments.DELETE');
    d.atomic(() => {
      for (const r of replies(x.urn)) comments.delete(r.urn);
      comments.delete(x.urn);
    });
    return c.body(null, 204);
  });
}
