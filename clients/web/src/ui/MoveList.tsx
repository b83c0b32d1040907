// Move list in Chinese notation and ICCS; clicking a move (or the step buttons) shows that position.
// The game page's moves and the analysis board's line alike. Each move is a button (reachable by
// Tab, the one shown marked aria-current), and a step says the move now shown in a polite region.
import { useEffect, useRef, useState } from 'preact/hooks';
import { t } from '../i18n';
import { ZH, zhParts } from './lang';

export interface ListedMove {
  ply: number; // 1 = the first move
  iccs: string;
  chinese: string;
  reveal?: string | null;
}

// `firstPly`: plies played before the list's first position (the analysis board's FEN may start
// later in a game, or with Black to move: then the first move is Black's and sits in its column).
export function MoveList({ moves, ply, firstPly = 0, onSelect }: { moves: readonly ListedMove[]; ply: number; firstPly?: number; onSelect: (ply: number) => void }) {
  const n = moves.length;
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    // Scroll the list itself only: scrollIntoView would also scroll the page on a phone.
    const box = list.current;
    const cur = box?.querySelector<HTMLElement>('.current');
    if (box && cur) {
      if (cur.offsetTop < box.scrollTop) box.scrollTop = cur.offsetTop;
      else if (cur.offsetTop + cur.offsetHeight > box.scrollTop + box.clientHeight) box.scrollTop = cur.offsetTop + cur.offsetHeight - box.clientHeight;
    }
  }, [ply, n]);
  return (
    <div class="panel moves">
      <ReplayAnnouncer moves={moves} ply={ply} firstPly={firstPly} />
      <h3>{t('moves')}</h3>
      <ol class="move-list" ref={list} data-testid="move-list">
        {moves.map((m, i) => {
          const abs = firstPly + m.ply; // odd: Red's move
          return (
            <li
              key={m.ply}
              class={`${abs % 2 ? 'red' : 'black'} ${m.ply === ply ? 'current' : ''}`}
              style={i === 0 && abs % 2 === 0 ? { gridColumn: 2 } : undefined}
              data-ply={m.ply}
              data-iccs={m.iccs}
              data-reveal={m.reveal}
            >
              <button type="button" class="move" aria-current={m.ply === ply ? 'true' : undefined} onClick={() => onSelect(m.ply)}>
                <span class="num">{abs % 2 ? `${(abs + 1) / 2}.` : ''}</span>
                {/* a reveal is in the server's notation: 兵九进一(翻车) */}
                <span class="zh" lang={ZH}>{m.chinese}</span>
                {/* Jieqi letters after the squares (h2h9Bp): what the moved face-down piece turned out to be,
                    then a captured face-down piece's identity where this viewer knows it, so two
                    viewers may read different letters (UX review, 2026-12-04: unexplained). */}
                <span class="iccs" title={m.iccs.length > 4 ? t('iccsLettersHelp') : undefined}>{m.iccs}</span>
              </button>
            </li>
          );
        })}
      </ol>
      <div class="replay-controls" data-testid="replay-controls">
        <button aria-label={t('first')} data-testid="replay-first" disabled={ply === 0} onClick={() => onSelect(0)}>«</button>
        <button aria-label={t('prev')} data-testid="replay-prev" disabled={ply === 0} onClick={() => onSelect(Math.max(0, ply - 1))}>◀</button>
        <span class="ply" data-testid="replay-ply">{ply}/{n}</span>
        <button aria-label={t('next')} data-testid="replay-next" disabled={ply >= n} onClick={() => onSelect(ply + 1)}>▶</button>
        <button aria-label={t('last')} data-testid="replay-last" disabled={ply >= n} onClick={() => onSelect(n)}>»</button>
      </div>
    </div>
  );
}

// Says the move now shown when the record is stepped through (arrow keys, the buttons, a move
// picked): the "4/5" counter and the board said nothing. Not when a move comes in while the live
// game is followed (the list grows with the position shown): the game's announcer says that. The
// region is there, empty, before it first speaks (one added with its text is not always read).
function ReplayAnnouncer({ moves, ply, firstPly }: { moves: readonly ListedMove[]; ply: number; firstPly: number }) {
  const n = moves.length;
  const [said, setSaid] = useState('');
  const before = useRef({ ply, n });
  useEffect(() => {
    const b = before.current;
    before.current = { ply, n };
    if (b.ply !== ply && b.n === n) setSaid(shownText(moves, ply, firstPly));
  }, [ply, n]);
  return <p class="sr-only" role="status" data-testid="replay-announce">{zhParts(said)}</p>;
}

// "Move 2, Black: 马８进７ (h9g7). 4 of 5." or "Start position. 0 of 5."
function shownText(moves: readonly ListedMove[], ply: number, firstPly: number): string {
  const n = moves.length;
  const m = moves.find((x) => x.ply === ply);
  if (!m) return t('replayStart', { n });
  const abs = firstPly + ply; // odd: Red's move
  const move = m.chinese ? `${m.chinese} (${m.iccs})` : m.iccs;
  return t('replayAt', { no: Math.ceil(abs / 2), side: t(abs % 2 ? 'red' : 'black'), move, ply, n });
}
