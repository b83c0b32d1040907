// A player's rating after each rated game in one variant (GET /api/users/{id}/rating-history/V),
// drawn as a small line: the player page's answer to "am I getting better?".
import { useEffect, useState } from 'preact/hooks';
import { t } from '../i18n';
import { api } from '../net/http';
import { variantText } from './TournamentsPage';
import { zhParts } from './lang';

export type RatingPoint = { at: number; rating: number; game_id: string };

const W = 320;
const H = 90;
const PAD = 6;

// The points as SVG coordinates: x by game (evenly spaced: a week's pause is no slope), y by rating
// between the lowest and highest (at least 50 apart, so a flat history does not look jagged).
export function chartPoints(points: RatingPoint[]): { x: number; y: number }[] {
  if (points.length === 0) return [];
  const ratings = points.map((p) => p.rating);
  let lo = Math.min(...ratings);
  let hi = Math.max(...ratings);
  if (hi - lo < 50) {
    const mid = (hi + lo) / 2;
    lo = mid - 25;
    hi = mid + 25;
  }
  const step = points.length > 1 ? (W - 2 * PAD) / (points.length - 1) : 0;
  return points.map((p, i) => ({
    x: points.length > 1 ? PAD + i * step : W / 2,
    y: PAD + ((hi - p.rating) / (hi - lo)) * (H - 2 * PAD),
  }));
}

export function RatingChart({ userId, variant }: { userId: string; variant: 'xiangqi' | 'jieqi' }) {
  const [points, setPoints] = useState<RatingPoint[] | null>(null);
  useEffect(() => {
    setPoints(null);
    api<{ points: RatingPoint[] }>('GET', `/api/users/${encodeURIComponent(userId)}/rating-history/${variant}`).then(
      (h) => setPoints(h.points),
      () => setPoints([]),
    );
  }, [userId, variant]);
  if (!points || points.length === 0) return null;
  const xy = chartPoints(points);
  const ratings = points.map((p) => p.rating);
  const last = points[points.length - 1];
  return (
    <figure class="rating-chart" data-testid="rating-chart" data-variant={variant} data-points={points.length}>
      <figcaption>
        {zhParts(variantText(variant))}{t('resultSep')}<b>{last.rating}</b>
        <span class="muted">{t('ratingRange', { lo: Math.min(...ratings), hi: Math.max(...ratings), n: points.length })}</span>
      </figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={t('ratingHistory')}>
        <polyline points={xy.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ')} fill="none" stroke="currentColor" stroke-width="2" />
        {xy.map((p, i) => (
          <a key={points[i].game_id} href={`#/game/${encodeURIComponent(points[i].game_id)}`}>
            <circle cx={p.x} cy={p.y} r="3.5" fill="currentColor">
              <title>{`${points[i].rating} · ${new Date(points[i].at).toLocaleDateString()}`}</title>
            </circle>
          </a>
        ))}
      </svg>
    </figure>
  );
}
