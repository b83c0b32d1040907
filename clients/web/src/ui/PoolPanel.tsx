// Quick pairing: join a pool (variant + time control), wait, and the game opens through the usual
// game_started push once the matchmaker finds a partner. Waiting counts come from GET /api/pools.
import { useEffect, useState } from 'preact/hooks';
import type { App } from '../app';
import { apiErrorText, t } from '../i18n';
import { api } from '../net/http';
import { useObservable } from '../store';
import { poolName } from '../tournament/logic';
import type { PoolInfo } from '../tournament/types';
import { poolLabel, tcText } from './format';
import { zhParts } from './lang';

const POLL_MS = 3000;
// Common pools: minutes + increment seconds.
export const POOL_TIMES: [number, number][] = [
  [60_000, 0],
  [180_000, 2000],
  [300_000, 3000],
  [600_000, 5000],
  [900_000, 0],
];

export function PoolPanel({ app }: { app: App }) {
  useObservable(app);
  const [variant, setVariant] = useState('xiangqi');
  const [waiting, setWaiting] = useState<Record<string, number>>({});
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    const load = async () => {
      try {
        const list = await api<PoolInfo[] | { pools: PoolInfo[] }>('GET', '/api/pools');
        const arr = Array.isArray(list) ? list : list.pools ?? [];
        if (live) setWaiting(Object.fromEntries(arr.map((p) => [p.pool, p.waiting])));
      } catch {
        /* counts are a nicety */
      }
    };
    void load();
    const timer = window.setInterval(load, POLL_MS);
    return () => {
      live = false;
      window.clearInterval(timer);
    };
  }, [app, app.pool]);

  const act = async (name: string, action: 'join' | 'leave') => {
    setBusy(true);
    setError('');
    try {
      await (action === 'join' ? app.joinPool(name) : app.leavePool(name));
    } catch (e) {
      setError(apiErrorText(e));
    } finally {
      setBusy(false);
    }
  };

  const inPool = app.pool;
  return (
    <section class="panel pools" data-testid="pools">
      <h2>{t('quickPairing')}</h2>
      {inPool ? (
        <div class="row pool-waiting" data-testid="pool-waiting" data-pool={inPool}>
          <span class="spinner" aria-hidden="true" />
          <span>{zhParts(t('poolWaiting', { pool: poolLabel(inPool) }))}</span>
          <button data-testid="pool-leave" disabled={busy} onClick={() => void act(inPool, 'leave')}>{t('leavePool')}</button>
        </div>
      ) : (
        <>
          <div class="row">
            {/* Named (it was a bare "combobox, Xiangqi" to a screen reader). */}
            <label>
              {t('variant')}{' '}
              <select data-testid="pool-variant" value={variant} onChange={(e) => setVariant(e.currentTarget.value)}>
                <option value="xiangqi">{t('xiangqi')}</option>
                <option value="jieqi">{t('jieqi')}</option>
              </select>
            </label>
          </div>
          <div class="pool-grid">
            {POOL_TIMES.map(([ms, inc]) => {
              const name = poolName(variant, ms, inc);
              return (
                <button key={name} data-testid="pool-join" data-pool={name} disabled={busy} onClick={() => void act(name, 'join')}>
                  <strong>{tcText({ initialMs: ms, incrementMs: inc })}</strong>
                  <span class="muted small">{t('nWaiting', { n: waiting[name] ?? 0 })}</span>
                </button>
              );
            })}
          </div>
        </>
      )}
      {error && <p class="error" role="alert">{error}</p>}
    </section>
  );
}

