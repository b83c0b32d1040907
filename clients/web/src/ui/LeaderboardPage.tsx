// The leaderboard (#/leaderboard[/VARIANT]): the rated players of a variant, best first, each
// linking to their page; a rating still unsure (few games) carries a "?". Data: GET
// /api/leaderboard/{variant} (docs/protocol.md).
import { useEffect, useState } from 'preact/hooks';
import type { App } from '../app';
import { apiErrorText, t } from '../i18n';
import { api } from '../net/http';
import { variantText } from './TournamentsPage';
import { zhParts } from './lang';

type Entry = { rank: number; user_id: string; name: string; rating: number; deviation: number; games: number; provisional: boolean };

export function LeaderboardPage({ app, variant }: { app: App; variant: 'xiangqi' | 'jieqi' }) {
  const [players, setPlayers] = useState<Entry[] | null>(null);
  const [error, setError] = useState('');

  useEffect(() => {
    setPlayers(null);
    api<{ players: Entry[] }>('GET', `/api/leaderboard/${variant}?limit=100`).then(
      (r) => {
        setPlayers(r.players);
        setError('');
      },
      (e) => setError(apiErrorText(e)),
    );
  }, [variant]);

  const me = app.user?.userId;
  return (
    <div class="panel leaderboard-page" data-testid="leaderboard" data-variant={variant}>
      <div class="row spread">
        <h2>{t('leaderboard')}</h2>
        <div class="tabs">
          {(['xiangqi', 'jieqi'] as const).map((v) => (
            <a key={v} class={`button${v === variant ? ' primary' : ''}`} href={`#/leaderboard/${v}`} data-testid={`leaderboard-${v}`}>{zhParts(variantText(v))}</a>
          ))}
        </div>
      </div>
      {error && <p class="error" role="alert">{error}</p>}
      {players && players.length === 0 && <p class="muted" data-testid="leaderboard-empty">{t('leaderboardEmpty')}</p>}
      {players && players.length > 0 && (
        <div class="table-wrap">
          <table class="grid-table">
            <thead>
              <tr>
                <th class="col-num">#</th>
                <th>{t('userName')}</th>
                <th>{t('rating')}</th>
                <th>{t('ratedGamesHeader')}</th>
              </tr>
            </thead>
            <tbody>
              {players.map((p) => (
                <tr key={p.user_id} class={p.user_id === me ? 'me' : ''} data-testid="leaderboard-row" data-user={p.user_id}>
                  <td class="col-num">{p.rank}</td>
                  <td class="name"><a href={`#/player/${encodeURIComponent(p.user_id)}`}>{p.name}</a></td>
                  <td title={p.provisional ? t('provisionalRating') : undefined}>
                    {p.rating}
                    {p.provisional ? '?' : ''}
                  </td>
                  <td>{p.games}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p class="muted small">{t('leaderboardHelp')}</p>
    </div>
  );
}
