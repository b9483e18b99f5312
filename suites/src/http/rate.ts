// --rps: a token bucket, so a short burst after an idle moment is allowed but the average never exceeds
// the rate a site owner agreed to. The clock and the sleep are passed in so tests run in no time.

export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => performance.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const t = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = (): void => {
        clearTimeout(t);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

export interface RateLimiter {
  /** Resolves when one request may go out. */
  take(signal?: AbortSignal): Promise<void>;
}

export const unlimited: RateLimiter = { take: async () => {} };

/** `rps` requests per second on average, bursts of at most max(1, rps). rps <= 0 means no limit. */
export function tokenBucket(rps: number, clock: Clock): RateLimiter {
  if (!(rps > 0)) return unlimited;
  const capacity = Math.max(1, rps);
  let tokens = capacity;
  let last = clock.now();
  // Waiters are served in order: each reserves its token before sleeping, so none can overtake.
  let queue: Promise<void> = Promise.resolve();
  const refill = (): void => {
    const t = clock.now();
    tokens = Math.min(capacity, tokens + ((t - last) * rps) / 1000);
    last = t;
  };
  return {
    take(signal) {
      const turn = queue.then(async () => {
        refill();
        if (tokens < 1) {
          await clock.sleep(Math.ceil(((1 - tokens) * 1000) / rps), signal);
          refill();
        }
        tokens -= 1;
      });
      queue = turn.catch(() => {});
      return turn;
    },
  };
}
