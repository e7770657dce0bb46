import type { ListResponse, Post } from '@socialpub/core';

/**
 * One page of `scheduled.list()`: the daemon's answer plus the means to walk on.
 * `for await (const post of page)` goes through this page and every later one.
 */
export class PostPage implements AsyncIterable<Post> {
  readonly success = true as const;
  readonly posts: Post[];
  readonly next_cursor: string | null;
  readonly #fetchPage: (cursor: string) => Promise<PostPage>;

  constructor(response: ListResponse, fetchPage: (cursor: string) => Promise<PostPage>) {
    this.posts = response.posts;
    this.next_cursor = response.next_cursor;
    this.#fetchPage = fetchPage;
  }

  hasNextPage(): boolean {
    return this.next_cursor !== null;
  }

  /** The following page; call only when hasNextPage(). */
  getNextPage(): Promise<PostPage> {
    if (this.next_cursor === null) return Promise.reject(new RangeError('This is the last page: check hasNextPage() first.'));
    return this.#fetchPage(this.next_cursor);
  }

  /** This page and every later one, fetched as the loop reaches them. */
  async *pages(): AsyncGenerator<PostPage> {
    yield this;
    let next = this.hasNextPage() ? await this.getNextPage() : null;
    while (next) {
      yield next;
      next = next.hasNextPage() ? await next.getNextPage() : null;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Post> {
    for await (const page of this.pages()) yield* page.posts;
  }
}

/**
 * What `scheduled.list()` returns: `await` it for the first page, or `for await` over it for
 * every post of every page. The first request starts when either begins (once), so a list
 * call that is never awaited sends nothing and cannot leave an unhandled rejection.
 */
export class PostListPromise implements PromiseLike<PostPage>, AsyncIterable<Post> {
  readonly #load: () => Promise<PostPage>;
  #first: Promise<PostPage> | undefined;

  constructor(load: () => Promise<PostPage>) {
    this.#load = load;
  }

  #page(): Promise<PostPage> {
    this.#first ??= this.#load();
    return this.#first;
  }

  then<A = PostPage, B = never>(onFulfilled?: ((page: PostPage) => A | PromiseLike<A>) | null, onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<A | B> {
    return this.#page().then(onFulfilled, onRejected);
  }

  catch<B = never>(onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<PostPage | B> {
    return this.#page().catch(onRejected);
  }

  finally(onFinally?: (() => void) | null): Promise<PostPage> {
    return this.#page().finally(onFinally);
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Post> {
    yield* await this.#page();
  }
}
