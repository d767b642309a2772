// One signal that aborts when any of its sources does: the caller's Cancel and the client's own deadline.

export interface CombinedSignal {
  signal: AbortSignal;
  /** Detaches listeners from the sources, so a long-lived caller signal doesn't collect one per request. */
  dispose(): void;
}

type AnyFn = (signals: AbortSignal[]) => AbortSignal;

/** AbortSignal.any where the runtime has it (Chrome 116+, Firefox 124+, Safari 17.4+, Node 20.3+), else a manual combiner. */
export function anySignal(signals: readonly AbortSignal[], any: AnyFn | undefined = nativeAny()): CombinedSignal {
  if (any) return { signal: any([...signals]), dispose: () => {} };
  return combineManually(signals);
}

function nativeAny(): AnyFn | undefined {
  const fn: unknown = (AbortSignal as { any?: unknown }).any;
  return typeof fn === 'function' ? (signals) => (fn as AnyFn).call(AbortSignal, signals) : undefined;
}

export function combineManually(signals: readonly AbortSignal[]): CombinedSignal {
  const ctrl = new AbortController();
  const detach: (() => void)[] = [];
  const dispose = () => {
    for (const d of detach.splice(0)) d();
  };
  for (const s of signals) {
    if (s.aborted) {
      ctrl.abort(s.reason);
      dispose();
      return { signal: ctrl.signal, dispose };
    }
    const onAbort = () => {
      ctrl.abort(s.reason);
      dispose();
    };
    s.addEventListener('abort', onAbort, { once: true });
    detach.push(() => s.removeEventListener('abort', onAbort));
  }
  return { signal: ctrl.signal, dispose };
}

/** A promise that rejects with `token` once `signal` aborts; it never settles otherwise. Already marked handled. */
export function whenAborted(signal: AbortSignal, token: unknown): { promise: Promise<never>; dispose(): void } {
  let dispose = () => {};
  const promise = new Promise<never>((_, reject) => {
    if (signal.aborted) {
      reject(token);
      return;
    }
    const onAbort = () => reject(token);
    signal.addEventListener('abort', onAbort, { once: true });
    dispose = () => signal.removeEventListener('abort', onAbort);
  });
  promise.catch(() => {});
  return { promise, dispose };
}
