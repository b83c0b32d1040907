// Minimal observable: models call changed(), components re-render through useObservable().
import { useEffect, useState } from 'preact/hooks';

export class Observable {
  private subs = new Set<() => void>();
  subscribe(fn: () => void): () => void {
    this.subs.add(fn);
    return () => this.subs.delete(fn);
  }
  protected changed() {
    for (const fn of this.subs) fn();
  }
}

export function useObservable(o: Observable | null | undefined) {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!o) return undefined;
    const off = o.subscribe(() => setTick((t) => t + 1));
    setTick((t) => t + 1); // a change between the first render and this subscription is not lost
    return off;
  }, [o]);
}
