/**
 * An answer with the span the service decided it in: no earlier than it was sent, no later
 * than it came back. Spans let a test check a time rule (one keyless read per 5 s) in the
 * direction a busy machine cannot break: a slower machine only widens them.
 */
export interface TimedAnswer<T> {
  answer: T;
  sentAt: number;
  answeredAt: number;
}

export async function timed<T>(request: () => Promise<T>): Promise<TimedAnswer<T>> {
  const sentAt = Date.now();
  const answer = await request();
  return { answer, sentAt, answeredAt: Date.now() };
}

/**
 * The pairs among `letThrough` (answers an interval limiter allowed) that it decided less than
 * `intervalMs` apart for certain: the later one came back within `intervalMs` of the earlier
 * one being sent, whichever of the two was decided first. Empty for a correct limiter, however
 * slow the machine.
 */
export function tooClose<T>(letThrough: TimedAnswer<T>[], intervalMs: number): Array<[TimedAnswer<T>, TimedAnswer<T>]> {
  const pairs: Array<[TimedAnswer<T>, TimedAnswer<T>]> = [];
  for (let i = 0; i < letThrough.length; i++) {
    for (let j = i + 1; j < letThrough.length; j++) {
      const [a, b] = [letThrough[i]!, letThrough[j]!];
      if (Math.max(b.answeredAt - a.sentAt, a.answeredAt - b.sentAt) < intervalMs) pairs.push([a, b]);
    }
  }
  return pairs;
}
