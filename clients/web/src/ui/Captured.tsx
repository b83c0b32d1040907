// Captured pieces by owner; a face-down piece the viewer may not know shows as "?".
import type { GameModel } from '../game/model';
import { t } from '../i18n';
import type { Color } from '../rules/board';
import { PIECE_CHARS } from './Board';
import { ZH } from './lang';

export function Captured({ game }: { game: GameModel }) {
  const row = (owner: Color) => (
    <div class={`captured-row ${owner === 'r' ? 'red' : 'black'}`} data-testid={`captured-${owner === 'r' ? 'red' : 'black'}`}>
      {game.captured
        .filter((c) => c.owner === owner)
        .map((c, i) => (
          <span
            key={i}
            class={`cap ${c.type ? '' : 'unknown'} ${c.wasDark ? 'was-dark' : ''}`}
            data-captured={`${owner}${c.type ? c.type.toUpperCase() : '?'}`}
            data-was-dark={c.wasDark ? '1' : '0'}
            title={c.type ? undefined : t('unknownPiece')}
            lang={c.type ? ZH : undefined}
          >
            {c.type ? PIECE_CHARS[owner][c.type.toUpperCase()] ?? c.type : '?'}
          </span>
        ))}
    </div>
  );
  return (
    <div class={`panel captured ${game.captured.length ? '' : 'empty'}`}>
      <h3>{t('captured')}</h3>
      {game.captured.length ? (
        <>
          {row('r')}
          {row('b')}
        </>
      ) : (
        <p class="muted small" data-testid="captured-none">{t('capturedNone')}</p>
      )}
    </div>
  );
}
