/** Exponential backoff with jitter (half to full of the doubled delay), so many pages do not retry in step. */
export const backoff = (attempt: number, firstMs: number, maxMs: number): number =>
  Math.min(maxMs, firstMs * 2 ** attempt) * (0.5 + Math.random() / 2);

/** Waits `ms`; rejects with the signal's reason as soon as it aborts, clearing its timer and listener. */
export const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    const abort = (): void => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', abort);
      resolve();
    }, ms);
    signal.addEventListener('abort', abort, { once: true });
  });
