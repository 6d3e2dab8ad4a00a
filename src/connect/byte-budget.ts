/**
 * Every byte a server sends counts. Per message (`limits.maxMessageBytes`: the longest line, or
 * the longest body without a line break), and in total per side over the run (`limits.maxSideBytes`:
 * discovery and cases together). Over HTTP the SDK reads response bodies itself, so the bound sits
 * in the fetch it is given: the body passes through a counter that fails the stream at a bound,
 * and the session ends with that reason (a verdict, not an out-of-memory crash).
 */
export interface ByteBudget {
  maxMessageBytes: number;
  maxSideBytes: number;
  /** Bytes received so far on this side. */
  received: number;
  /** Why the server was cut off, once it was. */
  exceeded: string | null;
}

export const byteBudget = (limits: { maxMessageBytes: number; maxSideBytes: number }): ByteBudget => ({ ...limits, received: 0, exceeded: null });

/** Counts a chunk; returns why the budget is now exceeded, or null. `sinceBreak` is the bytes since the last line break. */
export function spend(budget: ByteBudget, bytes: number, sinceBreak: number): string | null {
  budget.received += bytes;
  if (budget.received > budget.maxSideBytes) budget.exceeded ??= `the server sent more than limits.maxSideBytes (${budget.maxSideBytes} bytes) over the run`;
  else if (sinceBreak > budget.maxMessageBytes) budget.exceeded ??= `a message from the server exceeded limits.maxMessageBytes (${budget.maxMessageBytes} bytes)`;
  return budget.exceeded;
}

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** A fetch whose response bodies are held to `budget`. */
export function boundedFetch(budget: ByteBudget, onExceeded: (reason: string) => void): Fetch {
  return async (url, init) => {
    const response = await fetch(url, init);
    if (!response.body) return response;
    let sinceBreak = 0;
    const counted = response.body.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        const lastBreak = chunk.lastIndexOf(10);
        sinceBreak = lastBreak === -1 ? sinceBreak + chunk.byteLength : chunk.byteLength - lastBreak - 1;
        const reason = spend(budget, chunk.byteLength, sinceBreak);
        if (reason) {
          onExceeded(reason);
          controller.error(new Error(reason));
          return;
        }
        controller.enqueue(chunk);
      },
    }));
    return new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
