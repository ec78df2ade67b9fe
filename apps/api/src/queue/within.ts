/**
 * `call`, or a rejection once `ms` passed without an answer. For Redis calls whose client waits for a
 * connection forever (BullMQ's): a request or a reconciler pass must not hang while Redis is down. The
 * call itself goes on; its late outcome is ignored.
 */
export function within<T>(call: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  call.catch(() => undefined);
  return Promise.race([call, timeout]).finally(() => clearTimeout(timer));
}
