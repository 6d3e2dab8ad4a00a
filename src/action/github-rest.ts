/** GitHub's REST API by hand with fetch: one request retried on 5xx and rate limits, pages, a bounded download. */
export class GitHubApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly rateLimited = false,
  ) {
    super(message);
    this.name = 'GitHubApiError';
  }
}

/** Attempts per request: server errors (5xx), 429 and rate limits are retried with backoff. */
const ATTEMPTS = 3;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class GitHubRest {
  constructor(
    private readonly base: string,
    private readonly token: string,
    /** Per request; `MCPGATE_GITHUB_TIMEOUT_MS` sets it (tests use a short one). */
    private readonly timeoutMs = 20_000,
  ) {}

  async call<T>(method: string, path: string, body?: object): Promise<T> {
    return (await this.request<T>(method, path, body)).data;
  }

  /** A GET whose 404 means "none": null then, any other failure thrown. */
  async found<T>(path: string): Promise<T | null> {
    try {
      return await this.call<T>('GET', path);
    } catch (error) {
      if (error instanceof GitHubApiError && error.status === 404) return null;
      throw error;
    }
  }

  /** Each page of a list, following the Link header's `next` on this API, at most `max` pages. */
  async *pages<T>(path: string, max: number): AsyncGenerator<T[]> {
    let next: string | null = path;
    for (let page = 0; next && page < max; page++) {
      const got: { data: T[]; next: string | null } = await this.request<T[]>('GET', next);
      yield got.data;
      next = got.next;
    }
  }

  /**
   * The bytes at a URL of this API (an artifact's zip; GitHub redirects it to storage, and fetch
   * drops the token on a redirect to another origin), refused past `maxBytes` as they arrive.
   */
  async download(url: string, maxBytes: number): Promise<Buffer> {
    if (!url.startsWith(`${this.base}/`)) throw new Error(`${url} is not on ${this.base}`);
    const response = await fetch(url, {
      headers: { authorization: `Bearer ${this.token}`, 'user-agent': 'mcp-gate', 'x-github-api-version': '2022-11-28' },
      signal: AbortSignal.timeout(this.timeoutMs * 3),
    });
    if (!response.ok || !response.body) throw new GitHubApiError(response.status, `GET ${url}: HTTP ${response.status}`);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      size += (chunk as Uint8Array).length;
      if (size > maxBytes) throw new Error(`the artifact is past ${maxBytes} bytes`);
      chunks.push(Buffer.from(chunk as Uint8Array));
    }
    return Buffer.concat(chunks);
  }

  /** One request, retried on 5xx and rate limits; `next` is the Link header's next page, as a path on this API. */
  private async request<T>(method: string, path: string, body?: object): Promise<{ data: T; next: string | null }> {
    for (let attempt = 1; ; attempt++) {
      const response = await fetch(`${this.base}${path}`, {
        method,
        headers: {
          accept: 'application/vnd.github+json',
          authorization: `Bearer ${this.token}`,
          'x-github-api-version': '2022-11-28',
          'user-agent': 'mcp-gate',
          ...(body && { 'content-type': 'application/json' }),
        },
        ...(body && { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      if (response.ok) return { data: (await response.json()) as T, next: this.nextPage(response.headers.get('link')) };
      const detail = await response.text().catch(() => '');
      // GitHub says "rate limit" with 429, or with 403 and no requests left (the primary limit).
      const rateLimited =
        response.status === 429 ||
        (response.status === 403 && (response.headers.get('x-ratelimit-remaining') === '0' || /rate limit/i.test(detail)));
      const retryable = rateLimited || response.status >= 500;
      if (!retryable || attempt >= ATTEMPTS) {
        throw new GitHubApiError(
          response.status,
          `${method} ${path}: HTTP ${response.status}${rateLimited ? ' (rate limited)' : ''} ${detail.slice(0, 200)}`,
          rateLimited,
        );
      }
      const after = Number(response.headers.get('retry-after'));
      await sleep(Number.isFinite(after) && after > 0 ? Math.min(after, 10) * 1000 : 500 * 2 ** (attempt - 1));
    }
  }

  /** The `rel="next"` URL of a Link header, when it is on this API (a page link elsewhere is not followed). */
  private nextPage(link: string | null): string | null {
    const next = link
      ?.split(',')
      .map((part) => /<([^>]+)>\s*;\s*rel="next"/.exec(part)?.[1])
      .find(Boolean);
    return next?.startsWith(this.base) ? next.slice(this.base.length) : null;
  }
}
