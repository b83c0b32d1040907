// Where a game of the admin's live list comes from (GET /api/admin/games): its event, round and
// board, or the quick-pairing pool. A server that does not send these fields gives '' for both.
import { t } from '../i18n';
import { knockoutName, placeOfGame } from '../tournament/logic';
import { poolLabel } from '../ui/format';

export type GameOrigin = { id?: string; event_id?: string; round?: number; board?: number; pool?: string };

// "event E · round 2 · board 3"; round and board only when the server gives them (> 0). The game id
// tells the rest: a play-off game's name (it has no board), a two-game match's second game ("G2").
// '' for a game of no event.
export function eventPlaceText(g: GameOrigin): string {
  if (!g.event_id) return '';
  const parts = [t('adminGameEvent', { id: g.event_id })];
  if ((g.round ?? 0) > 0) parts.push(t('adminGameRound', { n: g.round! }));
  if ((g.board ?? 0) > 0) parts.push(t('adminGameBoard', { n: g.board! }));
  const place = g.id ? placeOfGame(g.id) : undefined;
  if (place && 'knockout' in place) {
    parts.push(knockoutName(place.knockout));
  } else if (place && place.game > 1) {
    parts.push(t('gameN', { n: place.game }));
  }
  return parts.join(' · ');
}

// "pool Xiangqi 5+3" ('' for none); a pool name of another shape as the server gives it.
export function poolText(g: GameOrigin): string {
  if (!g.pool) return '';
  return t('adminGamePool', { pool: /^\w+:\d+\+\d+$/.test(g.pool) ? poolLabel(g.pool) : g.pool });
}
