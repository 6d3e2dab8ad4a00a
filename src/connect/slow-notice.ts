/**
 * A step of one side that lasts, said on the progress log while it lasts: what the side is waiting
 * on, for how long, and which timeout (with its value) will end the wait. Silent for steps that end
 * in time, which is nearly all of them.
 */
export async function noticeSlow<T>(
  log: ((line: string) => void) | undefined,
  what: string,
  timeout: { name: string; ms: number },
  step: () => Promise<T>,
): Promise<T> {
  if (!log) return step();
  // Every 5 s, or twice within a short timeout, so that a wait is told before it ends.
  const every = Math.min(5_000, Math.max(500, Math.floor(timeout.ms / 2)));
  const started = performance.now();
  const timer = setInterval(() => {
    const seconds = Math.round((performance.now() - started) / 1000);
    log(`${what}: still waiting after ${seconds} s (${timeout.name} is ${timeout.ms} ms)`);
  }, every);
  timer.unref();
  try {
    return await step();
  } finally {
    clearInterval(timer);
  }
}
