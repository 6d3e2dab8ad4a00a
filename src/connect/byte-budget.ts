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

export const byteBudget = (limits: { maxMessageBytes: number; maxSideBytes: number }): ByteBudget => ({
  ...limits,
  received: 0,
  exceeded: null,
});

/** Counts a chunk; returns why the budget is now exceeded, or null. `sinceBreak` is the bytes since the last line break. */
function spend(budget: ByteBudget, bytes: number, sinceBreak: number): string | null {
  budget.received += bytes;
  if (budget.received > budget.maxSideBytes)
    budget.exceeded ??= `the server sent more than limits.maxSideBytes (${budget.maxSideBytes} bytes) over the run`;
  else if (sinceBreak > budget.maxMessageBytes)
    budget.exceeded ??= `a message from the server exceeded limits.maxMessageBytes (${budget.maxMessageBytes} bytes)`;
  return budget.exceeded;
}

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** The JSON-RPC code of a tools/call answer dropped for its size (the stdio transport uses the same). */
export const RESULT_TOO_LARGE = -32_050;

/** The id of a single tools/call request in a POST body, or undefined. */
function toolsCallId(init: RequestInit | undefined): string | number | undefined {
  if (typeof init?.body !== 'string') return undefined;
  try {
    const message = JSON.parse(init.body) as { method?: unknown; id?: unknown };
    return message.method === 'tools/call' && (typeof message.id === 'string' || typeof message.id === 'number') ? message.id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The answer to one tools/call, held to `maxResultBytes` as over stdio: read up to the bound, and
 * past it the rest is cancelled unread and the call gets a RESULT_TOO_LARGE error in its place,
 * so the probe fails with result-too-large and the session goes on.
 */
async function boundedResult(
  response: Response,
  id: string | number,
  maxResultBytes: number,
  budget: ByteBudget,
  onExceeded: (reason: string) => void,
): Promise<Response> {
  const reader = response.body!.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    const reason = spend(budget, value.byteLength, 0);
    if (reason) {
      onExceeded(reason);
      await reader.cancel().catch(() => undefined);
      throw new Error(reason);
    }
    if (bytes > maxResultBytes) {
      await reader.cancel().catch(() => undefined);
      const message = `the result (more than ${maxResultBytes} bytes) exceeded limits.maxResultBytes (${maxResultBytes} bytes) and was dropped unread`;
      const error = {
        jsonrpc: '2.0',
        id,
        error: { code: RESULT_TOO_LARGE, message, data: { resultBytes: bytes, limitBytes: maxResultBytes } },
      };
      return new Response(JSON.stringify(error), { status: 200, headers: { 'content-type': 'application/json' } });
    }
    chunks.push(value);
  }
  return new Response(new Blob(chunks as BlobPart[]), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/** How much of a refusal's body (an HTTP status of 400 or more) is kept, to say what the server said. */
const REFUSAL_BYTES = 2048;

/**
 * A fetch whose response bodies are held to `budget`, and each tools/call answer to `maxResultBytes`.
 * A refusal (HTTP 400 or more) is handed to `onRefused` with the start of its body: the SDK's own
 * error for it names the status only ("the server requires authorization"), not what the server said.
 */
export function boundedFetch(
  budget: ByteBudget,
  onExceeded: (reason: string) => void,
  maxResultBytes = Infinity,
  onRefused?: (status: number, text: string) => void,
): Fetch {
  return async (url, init) => {
    const response = await fetch(url, init);
    if (!response.body) return response;
    if (response.status >= 400 && onRefused) return refused(response, onRefused);
    const callId = toolsCallId(init);
    if (callId !== undefined && response.ok && Number.isFinite(maxResultBytes))
      return boundedResult(response, callId, maxResultBytes, budget, onExceeded);
    let sinceBreak = 0;
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
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
      }),
    );
    return new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** The refusal with its body read up to REFUSAL_BYTES (and handed on), the rest dropped. */
async function refused(response: Response, onRefused: (status: number, text: string) => void): Promise<Response> {
  const reader = response.body!.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  while (bytes < REFUSAL_BYTES) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    bytes += value.byteLength;
  }
  void reader.cancel().catch(() => undefined);
  const body = Buffer.concat(chunks).subarray(0, REFUSAL_BYTES);
  onRefused(response.status, body.toString('utf8'));
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
