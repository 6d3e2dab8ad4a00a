import type { Timeouts } from '../config/types.js';
import type { Side } from '../findings/types.js';
import { RunTimeoutError, SideUnavailableError } from './errors.js';
import { RUN_MARK } from './process-group.js';
import type { Session } from './session.js';
import { startWatchdog } from './watchdog.js';

/** How long past timeouts.runMs (and the kill grace) the watchdog waits before it ends a stuck gate. */
const WATCHDOG_SLACK_MS = 15_000;
/** A worker costs about 30 ms of CPU and 10 MB: runs shorter than this (most) never start one. */
const WATCHDOG_AFTER_MS = 2_000;

/**
 * The run's deadline (`timeouts.runMs`) and what it must end: every session the run opens, and the
 * tool calls in flight, so a run that times out can say what it was waiting on. At the deadline
 * every server is ended, whatever it is doing; what was waiting on it then fails fast.
 */
export class RunDeadline {
  private readonly sessions: Session[] = [];
  private readonly inFlight: Record<Side, Map<string, number>> = { baseline: new Map(), candidate: new Map() };
  private expiredDuring = 'the case replay';
  private passed = false;
  private readonly timer: NodeJS.Timeout;
  private readonly reached: Promise<never>;
  private standDownWatchdog = (): void => undefined;
  private readonly watchdogStart: NodeJS.Timeout;

  private readonly startedAt = Date.now();
  private watchdogStarted = false;

  constructor(private readonly timeouts: Timeouts) {
    let reject: (error: Error) => void = () => undefined;
    this.reached = new Promise<never>((_, r) => (reject = r));
    this.reached.catch(() => undefined);
    this.timer = setTimeout(() => {
      this.passed = true;
      this.expiredDuring = this.waitingOn(); // before the servers are ended and their calls fail
      void this.closeSessions().then(() => reject(new RunTimeoutError(timeouts.runMs, this.expiredDuring)));
    }, timeouts.runMs);
    // Should the main thread ever be too busy to keep runMs, a worker thread ends the run (connect/watchdog.ts).
    this.watchdogStart = setTimeout(() => this.startWatchdog(), WATCHDOG_AFTER_MS);
    this.watchdogStart.unref();
  }

  private startWatchdog(): void {
    if (this.watchdogStarted) return;
    this.watchdogStarted = true;
    const after = this.startedAt + this.timeouts.runMs + this.timeouts.killGraceMs + WATCHDOG_SLACK_MS - Date.now();
    this.standDownWatchdog = startWatchdog(
      Math.max(0, after),
      RUN_MARK,
      `the gate did not answer ${WATCHDOG_SLACK_MS / 1000} s past timeouts.runMs (${this.timeouts.runMs} ms): its main thread is stuck; killing every server and the gate (exit 137)`,
    );
  }

  /**
   * For work that holds the main thread (the schema walks call it every few thousand nodes), where
   * the timer cannot fire: past runMs it throws RunTimeoutError at once, as the timer would have;
   * past the watchdog's start it starts the watchdog, which the busy thread's timer could not.
   */
  check(stage: string): void {
    const elapsed = Date.now() - this.startedAt;
    if (elapsed >= WATCHDOG_AFTER_MS) this.startWatchdog();
    if (elapsed < this.timeouts.runMs) return;
    this.passed = true;
    this.expiredDuring = stage;
    void this.closeSessions();
    throw new RunTimeoutError(this.timeouts.runMs, stage);
  }

  /** Whether runMs has passed. */
  get expired(): boolean {
    return this.passed;
  }

  /** A session the run opened: ended at the deadline, and at the end of the run. */
  adopt = (session: Session): void => {
    this.sessions.push(session);
  };

  /** Runs one tool call of a side, counted as in flight while it lasts. */
  async track<T>(side: Side, tool: string, call: () => Promise<T>): Promise<T> {
    const calls = this.inFlight[side];
    calls.set(tool, (calls.get(tool) ?? 0) + 1);
    try {
      return await call();
    } finally {
      calls.set(tool, calls.get(tool)! - 1);
    }
  }

  /** A side that failed because the deadline ended its server is blamed on the deadline, not on the server. */
  blame<T>(outcome: PromiseSettledResult<T>, side: Side): PromiseSettledResult<T> {
    if (!this.passed || outcome.status !== 'rejected' || !(outcome.reason instanceof SideUnavailableError)) return outcome;
    const reason = `the run exceeded timeouts.runMs (${this.timeouts.runMs} ms) during ${outcome.reason.phase}`;
    return { status: 'rejected', reason: new SideUnavailableError(side, 'run', reason, outcome.reason.stderrTail) };
  }

  /** Waits for `work`, or throws RunTimeoutError when the deadline passes first (or passed while it ran). */
  async race<T>(work: Promise<T>): Promise<T> {
    const result = await Promise.race([work, this.reached]);
    if (this.passed) throw new RunTimeoutError(this.timeouts.runMs, this.expiredDuring);
    return result;
  }

  /** The run is over: the timers stop and every session ends. */
  async end(): Promise<void> {
    clearTimeout(this.timer);
    clearTimeout(this.watchdogStart);
    this.standDownWatchdog();
    await this.closeSessions();
  }

  private closeSessions(): Promise<unknown> {
    return Promise.all(this.sessions.map((s) => s.close()));
  }

  private waitingOn(): string {
    const sides = (['baseline', 'candidate'] as const).flatMap((side) => {
      const calls = [...this.inFlight[side]]
        .filter(([, n]) => n > 0)
        .map(([tool, n]) => (n > 1 ? `${tool} ×${n}` : tool))
        .sort();
      return calls.length ? [`${side} (tools/call ${calls.join(', ')})`] : [];
    });
    return sides.length ? `the case replay, waiting on the ${sides.join(' and the ')}` : 'the case replay';
  }
}
