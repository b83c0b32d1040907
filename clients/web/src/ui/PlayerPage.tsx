// A player's page (#/player/USER_ID): ratings per variant and the finished games, newest first,
// each from this player's side (won, lost, drawn), linking to the game and to the opponent's page.
// Data: GET /api/users/{id}/ratings, /rating-history/{variant} and /games (docs/protocol.md).
import { useEffect, useState } from 'preact/hooks';
import type { App } from '../app';
import { apiErrorText, paren, reasonText, t } from '../i18n';
import { ApiError, api } from '../net/http';
import { ratingCounted, tcText } from './format';
import { RatingChart } from './RatingChart';
import { errorProps } from './form_validity';
import { variantText } from './TournamentsPage';
import { zhParts } from './lang';

type Rating = { rating: number; deviation: number; games: number };
type Ratings = { xiangqi?: Rating; jieqi?: Rating };
type PlayerRef = { user_id: string; name: string };
export type GameSummary = {
  id: string;
  variant: string;
  rated: boolean;
  event_id: string;
  initial_ms: number;
  increment_ms: number;
  red: PlayerRef;
  black: PlayerRef;
  result: string;
  reason: string;
  plies: number;
  ended_ms: number;
};

const PAGE = 20;

// The game's outcome from one player's side: 'won' | 'lost' | 'drawn' | 'aborted'.
export function outcomeFor(g: GameSummary, userId: string): 'won' | 'lost' | 'drawn' | 'aborted' {
  if (g.reason === 'abort') return 'aborted';
  if (g.reason === 'double_forfeit') return 'lost'; // sent as a draw, scored 0–0: both lost
  if (g.result === 'draw') return 'drawn';
  const red = g.red.user_id === userId;
  return (g.result === 'red-wins') === red ? 'won' : 'lost';
}

export function PlayerPage({ app, id }: { app: App; id: string }) {
  const [ratings, setRatings] = useState<Ratings | null>(null);
  const [games, setGames] = useState<GameSummary[]>([]);
  const [total, setTotal] = useState<number | null>(null);
  const [error, setError] = useState('');
  const [loading, setLoading] = useState(false);

  const loadMore = async (offset: number) => {
    setLoading(true);
    try {
      const page = await api<{ games: GameSummary[]; total: number }>(
        'GET', `/api/users/${encodeURIComponent(id)}/games?limit=${PAGE}&offset=${offset}`);
      setGames((before) => (offset === 0 ? page.games : [...before, ...page.games]));
      setTotal(page.total);
      setError('');
    } catch (e) {
      setError(apiErrorText(e));
    } finally {
      setLoading(false);
    }
  };

  const [accountName, setAccountName] = useState('');
  // An id of no shape the server gives, or an account id no account has (a typo, an old link):
  // said so, not shown as a player of 1500 with no games.
  const wellFormed = /^[gu]-[0-9a-f]{16}$/.test(id);
  const [noAccount, setNoAccount] = useState(false);
  useEffect(() => {
    setNoAccount(false);
    if (!wellFormed) return;
    void loadMore(0);
    api<Ratings>('GET', `/api/users/${encodeURIComponent(id)}/ratings`).then(setRatings, (e) => setError(apiErrorText(e)));
    // An account's name even before it has played (guests are not stored: their games name them).
    if (!id.startsWith('g-'))
      api<{ name: string }>('GET', `/api/users/${encodeURIComponent(id)}`).then(
        (u) => setAccountName(u.name),
        (e) => setNoAccount(e instanceof ApiError && e.status === 404),
      );
  }, [id]);
  // The name the page is titled with (the player's own page is "My games").
  const known = !wellFormed || noAccount ? '' : accountName || (games[0] ? (games[0].red.user_id === id ? games[0].red.name : games[0].black.name) : '');
  useEffect(() => app.namePage(`player/${id}`, known), [app, id, known]);
  if (!wellFormed || noAccount)
    return (
      <div class="player-page" data-testid="player-page">
        <h2 data-testid="player-name">{t('playerUnknownName')}</h2>
        <p class="muted" data-testid="no-such-player">{t('noSuchPlayer')}</p>
      </div>
    );

  const me = app.user?.userId === id;
  // Ours we know; else the account's, or the name the games give.
  const first = games[0];
  const name = me ? app.user!.name : accountName || (first ? (first.red.user_id === id ? first.red.name : first.black.name) : '');

  return (
    <div class="player-page" data-testid="player-page">
      <h2 data-testid="player-name">{name || t('playerUnknownName')}{me ? paren(t('you')) : ''}</h2>
      {error && <p class="error" role="alert">{error}</p>}
      {/* Guests never play rated games: no ratings to show. */}
      {ratings && !id.startsWith('g-') && (
        <p class="ratings" data-testid="player-ratings">
          {(['xiangqi', 'jieqi'] as const).map((v) => {
            const r = ratings[v];
            return (
              <span key={v} class="rating" data-variant={v}>
                {zhParts(variantText(v))}{t('resultSep')}<b>{r ? Math.round(r.rating) : 1500}</b>
                <span class="muted">{paren(t('ratedGames', { n: r?.games ?? 0 }))}</span>
              </span>
            );
          })}
        </p>
      )}
      {!id.startsWith('g-') && (
        <div class="rating-charts">
          <RatingChart userId={id} variant="xiangqi" />
          <RatingChart userId={id} variant="jieqi" />
        </div>
      )}
      {me && !app.user!.guest && <PasswordForm app={app} />}
      <h3>{t('finishedGames')}{total !== null ? paren(total) : ''}</h3>
      {total === 0 && <p class="muted" data-testid="no-games">{t('noFinishedGames')}</p>}
      {games.length > 0 && (
        <div class="table-wrap">
          <table class="grid-table player-games" data-testid="player-games">
            <thead>
              <tr>
                <th>{t('opponent')}</th>
                <th>{t('result')}</th>
                <th><span class="sr-only">{t('gameColumn')}</span></th>
                <th>{t('colour')}</th>
                <th>{t('variantLabel')}</th>
                <th class="wide-only">{t('pliesHeader')}</th>
                <th class="wide-only">{t('date')}</th>
              </tr>
            </thead>
            <tbody>
              {games.map((g) => {
                const red = g.red.user_id === id;
                const opp = red ? g.black : g.red;
                const outcome = outcomeFor(g, id);
                return (
                  <tr key={g.id} data-testid="player-game" data-game={g.id} data-outcome={outcome}>
                    <td class="name">
                      <a href={`#/player/${encodeURIComponent(opp.user_id)}`}>{opp.name}</a>
                    </td>
                    <td class={`outcome ${outcome}`}>
                      {t(`outcome.${outcome}`)}
                      {outcome !== 'aborted' && g.reason ? ` · ${reasonText(g.reason)}` : ''}
                    </td>
                    <td>
                      <a href={`#/game/${encodeURIComponent(g.id)}`} data-testid="open-game">{t('view')}</a>
                    </td>
                    <td class={red ? 'red-cell' : ''}>{red ? t('red') : t('black')}</td>
                    <td data-testid="game-rated-cell" data-rated={ratingCounted(g) ? '1' : '0'}>
                      {zhParts(variantText(g.variant))} · {tcText({ initialMs: g.initial_ms, incrementMs: g.increment_ms })}
                      {ratingCounted(g) ? ` · ${t('rated')}` : ''}
                      {g.event_id ? ' · 🏆' : ''}
                    </td>
                    <td class="wide-only">{g.plies}</td>
                    <td class="wide-only">{new Date(g.ended_ms).toLocaleDateString()}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {total !== null && games.length < total && (
        <button data-testid="more-games" disabled={loading} onClick={() => void loadMore(games.length)}>{t('moreGames')}</button>
      )}
    </div>
  );
}

// The account's password, changed (POST /api/account/password): this browser keeps its session
// with the fresh token the answer carries; every other session ends.
function PasswordForm({ app }: { app: App }) {
  const [f, setF] = useState({ current: '', fresh: '', again: '' });
  // The text is worded at each render (a thunk), so a language switch re-words it.
  // `field`: the field a refusal is about (marked invalid, described by the message).
  const [msg, setMsg] = useState<{ ok: boolean; text: () => string; field?: keyof typeof f } | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (k: keyof typeof f) => (e: Event) => setF({ ...f, [k]: (e.currentTarget as HTMLInputElement).value });
  const errorOf = (k: keyof typeof f) => errorProps('password-msg', !!msg && !msg.ok && msg.field === k);
  const submit = async (e: Event) => {
    e.preventDefault();
    if (f.fresh !== f.again) return setMsg({ ok: false, text: () => t('passwordsDiffer'), field: 'again' });
    if (f.fresh.length < 6) return setMsg({ ok: false, text: () => t('passwordTooShort'), field: 'fresh' });
    setBusy(true);
    try {
      const r = await api<{ token: string }>('POST', '/api/account/password', { password: f.current, new_password: f.fresh }, { token: app.conn.token });
      app.conn.setToken(r.token);
      setF({ current: '', fresh: '', again: '' });
      setMsg({ ok: true, text: () => t('passwordChanged') });
    } catch (err) {
      const wrong = (err as { status?: number }).status === 403;
      setMsg({ ok: false, text: () => (wrong ? t('wrongPassword') : apiErrorText(err)), field: wrong ? 'current' : undefined });
    } finally {
      setBusy(false);
    }
  };
  // Every other browser or device signed in to the account is signed out; this one keeps going.
  const signOutElsewhere = async () => {
    if (!window.confirm(t('signOutEverywhereConfirm'))) return;
    setBusy(true);
    try {
      const r = await api<{ token: string }>('POST', '/api/account/sign-out-everywhere', {}, { token: app.conn.token });
      app.conn.setToken(r.token);
      setMsg({ ok: true, text: () => t('signedOutEverywhere') });
    } catch (err) {
      setMsg({ ok: false, text: () => apiErrorText(err) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <details class="panel password-form" data-testid="password-form">
      <summary>{t('accountSecurity')}</summary>
      <form onSubmit={submit}>
        <label>
          {t('currentPassword')}
          <input type="password" autocomplete="current-password" data-testid="password-current" {...errorOf('current')} value={f.current} onInput={set('current')} />
        </label>
        <label>
          {t('newPassword')}
          <input type="password" autocomplete="new-password" data-testid="password-new" {...errorOf('fresh')} value={f.fresh} onInput={set('fresh')} />
        </label>
        <label>
          {t('newPasswordAgain')}
          <input type="password" autocomplete="new-password" data-testid="password-again" {...errorOf('again')} value={f.again} onInput={set('again')} />
        </label>
        <button class="primary" data-testid="password-save" disabled={busy || !f.current || !f.fresh}>{t('changePassword')}</button>
      </form>
      {msg && <p class={msg.ok ? 'ok' : 'error'} role={msg.ok ? 'status' : 'alert'} id="password-msg" data-testid="password-msg">{msg.text()}</p>}
      <p>
        <button data-testid="sign-out-everywhere" disabled={busy} onClick={() => void signOutElsewhere()}>{t('signOutEverywhere')}</button>
      </p>
    </details>
  );
}
