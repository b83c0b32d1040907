// A player's page (#/player/USER_ID): ratings per variant and the finished games, newest first,
// each from this player's side (won, lost, drawn), linking to the game and to the opponent's page.
// Data: GET /api/users/{id}/ratings and /api/users/{id}/games (docs/protocol.md).
import { useEffect, useState } from 'preact/hooks';
import type { App } from '../app';
import { apiErrorText, reasonText, t } from '../i18n';
import { api } from '../net/http';
import { tcText } from './format';
import { variantText } from './TournamentsPage';

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

  useEffect(() => {
    void loadMore(0);
    api<Ratings>('GET', `/api/users/${encodeURIComponent(id)}/ratings`).then(setRatings, (e) => setError(apiErrorText(e)));
  }, [id]);

  const me = app.user?.userId === id;
  // The name as the games give it (the server keeps no other public profile); ours we know.
  const first = games[0];
  const name = me ? app.user!.name : first ? (first.red.user_id === id ? first.red.name : first.black.name) : '';

  return (
    <div class="player-page" data-testid="player-page">
      <h2 data-testid="player-name">{name || t('playerUnknownName')}{me ? ` (${t('you')})` : ''}</h2>
      {error && <p class="error" role="alert">{error}</p>}
      {/* Guests never play rated games: no ratings to show. */}
      {ratings && !id.startsWith('g-') && (
        <p class="ratings" data-testid="player-ratings">
          {(['xiangqi', 'jieqi'] as const).map((v) => {
            const r = ratings[v];
            return (
              <span key={v} class="rating" data-variant={v}>
                {variantText(v)}: <b>{r ? Math.round(r.rating) : 1500}</b>{' '}
                <span class="muted">({t('ratedGames', { n: r?.games ?? 0 })})</span>
              </span>
            );
          })}
        </p>
      )}
      <h3>{t('finishedGames')}{total !== null ? ` (${total})` : ''}</h3>
      {total === 0 && <p class="muted" data-testid="no-games">{t('noFinishedGames')}</p>}
      {games.length > 0 && (
        <div class="table-wrap">
          <table class="grid-table player-games" data-testid="player-games">
            <thead>
              <tr>
                <th>{t('opponent')}</th>
                <th>{t('result')}</th>
                <th />
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
                    <td>
                      {variantText(g.variant)} · {tcText({ initialMs: g.initial_ms, incrementMs: g.increment_ms })}
                      {g.rated ? ` · ${t('rated')}` : ''}
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
