// The board in SVG: grid, river, palace, traditional pieces, face-down Jieqi pieces, last-move and
// check marks, legal-move dots, a premove. Moves by click/tap (select, then target) or by dragging;
// pointer events cover mouse, pen and touch alike. While the opponent thinks a player may premove:
// the same gestures choose it, any press on the board drops the one set.
// The keyboard plays the same way: the board is a grid of 90 named points with one of them in the
// Tab order (a roving cursor); arrow keys move the cursor as drawn, Enter or Space presses the
// point under it as a click does, Escape lets the piece go.
import { useEffect, useId, useMemo, useRef, useState } from 'preact/hooks';
import { t, type Key } from '../i18n';
import { premoveTargets } from '../game/premove';
import { fileOf, parseSquare, rankOf, sq, squareName, type Color, type Move, type Piece, type Position, type Square } from '../rules/board';
import { illegalReason, legalTargets } from '../rules/movegen';
import { ZH, zhParts } from './lang';

const CELL = 60;
const MARGIN = 46; // room for the file numbers outside the pieces
const W = MARGIN * 2 + CELL * 8;
const H = MARGIN * 2 + CELL * 9;
const R = 26;

export const PIECE_CHARS: Record<Color, Record<string, string>> = {
  r: { K: '帥', A: '仕', B: '相', N: '傌', R: '俥', C: '炮', P: '兵' },
  b: { K: '將', A: '士', B: '象', N: '馬', R: '車', C: '砲', P: '卒' },
};

export interface BoardProps {
  position: Position;
  orientation: Color; // the side drawn at the bottom
  lastMove?: { from: Square; to: Square } | null;
  checkSquare?: Square | null;
  revealSquare?: Square | null; // a Jieqi piece just turned face up here: animate the flip
  turnedAtEnd?: Square[]; // Jieqi pieces still face down at the end, turned up from the published assignment
  movable?: Color | null; // the side the user may move now, null = view only
  onMove?: (from: Square, to: Square) => void;
  // A move the rules refuse was tried (the selection is let go): say why.
  onIllegal?: (reason: 'check' | 'illegal') => void;
  premovable?: Color | null; // the side that may premove now (the opponent is to move), null = none
  premove?: Move | null; // the premove set, highlighted
  onPremove?: (m: Move | null) => void; // set one, or null: cancel it
}

export function Board(props: BoardProps) {
  const { position, orientation, lastMove, checkSquare, revealSquare, turnedAtEnd, movable, onMove, onIllegal, premove, onPremove } = props;
  const svg = useRef<SVGSVGElement>(null);
  const [selected, setSelected] = useState<Square | null>(null);
  // The keyboard's cursor, from the general's point of the side at the bottom; `said`: what the
  // board's live region says after a key (picked up, put back).
  const [cursor, setCursor] = useState<Square>(() => sq(4, orientation === 'r' ? 0 : 9));
  const [said, setSaid] = useState('');
  const [drag, setDrag] = useState<{ from: Square; x: number; y: number; active: boolean; reselect: boolean } | null>(null);

  const flip = orientation === 'b';
  const toXY = (s: Square) => {
    const col = flip ? 8 - fileOf(s) : fileOf(s);
    const row = flip ? rankOf(s) : 9 - rankOf(s);
    return { x: MARGIN + col * CELL, y: MARGIN + row * CELL };
  };
  // Premoving: it is the other side's move and this one may choose its next move already.
  const premoving = !(movable && position.turn === movable) && !!props.premovable && position.turn !== props.premovable;
  const mover = premoving ? props.premovable! : movable && position.turn === movable ? movable : null;
  const canMove = (s: Square) => !!mover && position.board[s]?.color === mover;
  const sel = selected !== null && canMove(selected) ? selected : null;
  const targets = useMemo(
    () => (sel === null ? [] : premoving ? premoveTargets(position, sel, mover!) : legalTargets(position, sel)),
    [position, sel, premoving, mover],
  );

  const pointToSvg = (e: PointerEvent) => {
    const m = svg.current?.getScreenCTM();
    if (!m) return { x: 0, y: 0 };
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
    return { x: p.x, y: p.y };
  };
  // The point at a row and column as drawn (row 0 at the top).
  const squareDrawnAt = (col: number, row: number): Square => (flip ? sq(8 - col, row) : sq(col, 9 - row));
  const squareAt = (x: number, y: number): Square | null => {
    const col = Math.round((x - MARGIN) / CELL);
    const row = Math.round((y - MARGIN) / CELL);
    if (col < 0 || col > 8 || row < 0 || row > 9) return null;
    return squareDrawnAt(col, row);
  };

  const tryMove = (from: Square, to: Square) => {
    if (premoving) {
      setSelected(null);
      // Somewhere the piece cannot get to is no premove: the press only let the piece go.
      if (!premoveTargets(position, from, mover!).includes(to)) return false;
      onPremove?.({ from, to });
      return true;
    }
    const why = illegalReason(position, from, to);
    if (why) {
      onIllegal?.(why);
      return false;
    }
    setSelected(null);
    onMove?.(from, to);
    return true;
  };

  // A press on a point, by pointer or key: cancels a premove set, picks up an own piece (true:
  // the pointer may drag it), or puts the one held down there.
  const press = (s: Square): boolean => {
    if (premoving && premove) {
      // Any press cancels the premove set; on another own piece it starts choosing a new one.
      onPremove?.(null);
      if (s === premove.from) return false;
    }
    // A premove may go onto an own piece (a recapture), so there a target wins over reselecting.
    const premoveOnOwn = premoving && sel !== null && targets.includes(s);
    if (canMove(s) && !premoveOnOwn) {
      setSelected(s);
      return true;
    }
    if (sel !== null && !tryMove(sel, s)) setSelected(null);
    return false;
  };

  const onDown = (e: PointerEvent) => {
    if (!mover) return;
    const p = pointToSvg(e);
    const s = squareAt(p.x, p.y);
    if (s === null) return;
    const reselect = s === sel;
    if (press(s)) {
      (e.currentTarget as Element).setPointerCapture?.(e.pointerId);
      setDrag({ from: s, x: p.x, y: p.y, active: false, reselect });
    }
  };
  const onMoveEv = (e: PointerEvent) => {
    if (!drag) return;
    const p = pointToSvg(e);
    const far = Math.hypot(p.x - drag.x, p.y - drag.y) > 8;
    if (far || drag.active) setDrag({ ...drag, x: p.x, y: p.y, active: true });
  };
  const onUp = (e: PointerEvent) => {
    if (!drag) return;
    const p = pointToSvg(e);
    const s = squareAt(p.x, p.y);
    if (drag.active) {
      if (s !== null && s !== drag.from) tryMove(drag.from, s);
    } else if (drag.reselect) setSelected(null); // a second tap on the selected piece lets go
    setDrag(null);
  };

  // Enter or Space: a press on the cursor's point; on the piece held, it is let go (as a second tap).
  const pressByKey = (s: Square) => {
    if (!mover) return;
    if (s === sel && !(premoving && premove)) {
      setSelected(null);
      setSaid(t('putBack'));
      return;
    }
    const picked = press(s);
    setSaid(picked ? pickedUpText(s) : '');
  };
  const pickedUpText = (s: Square) => {
    const to = premoving ? premoveTargets(position, s, mover!) : legalTargets(position, s);
    const what = { piece: pieceName(position.board[s]!), square: squareName(s) };
    return to.length ? t('pickedUp', { ...what, targets: to.map(squareName).join(t('listSep')) }) : t('pickedUpStuck', what);
  };
  const onKey = (e: KeyboardEvent) => {
    const step = ARROWS[e.key];
    // The focused point: keys typed faster than the page redraws each start where the last went.
    const at = parseSquare((e.target as Element).getAttribute('data-square') ?? '') ?? cursor;
    if (step) {
      const col = Math.min(8, Math.max(0, (flip ? 8 - fileOf(at) : fileOf(at)) + step[0]));
      const row = Math.min(9, Math.max(0, (flip ? rankOf(at) : 9 - rankOf(at)) + step[1]));
      // The focus moves at once (a roving tabindex), and the cursor with it (onFocus).
      svg.current?.querySelector<SVGElement>(`[data-square=${squareName(squareDrawnAt(col, row))}]`)?.focus();
    } else if (e.key === 'Enter' || e.key === ' ') pressByKey(at);
    else if (e.key === 'Escape' && sel !== null) {
      setSelected(null);
      setSaid(t('putBack'));
    } else return;
    // The page's own arrow keys step through the moves: not while they move the cursor.
    e.preventDefault();
    e.stopPropagation();
  };
  // A new position: what was said about the old one is stale (and the same words must be able
  // to come again).
  useEffect(() => setSaid(''), [position]);

  // What a point says to a screen reader: its name, what stands on it, and its marks.
  const cellLabel = (s: Square) => {
    const pc = position.board[s];
    const marks = [pc ? pieceName(pc) : t('cellEmpty')];
    if (s === sel) marks.push(t('cellSelected'));
    if (targets.includes(s)) marks.push(t('cellTarget'));
    if (premove && (s === premove.from || s === premove.to)) marks.push(t('cellPremove'));
    if (lastMove && (s === lastMove.from || s === lastMove.to)) marks.push(t('cellLastMove'));
    if (s === checkSquare) marks.push(t('cellCheck'));
    return t('boardCell', { square: squareName(s), what: marks.join(t('commaSep')) });
  };

  const pieces: preact.JSX.Element[] = [];
  let lifted: preact.JSX.Element | null = null;
  position.board.forEach((pc, s) => {
    if (!pc) return;
    const dragging = !!drag?.active && drag.from === s;
    const { x, y } = dragging ? { x: drag!.x, y: drag!.y } : toXY(s);
    const g = <PieceGlyph key={`p${s}`} piece={pc} x={x} y={y} square={squareName(s)} selected={s === sel} lifted={dragging} revealed={s === revealSquare || !!turnedAtEnd?.includes(s)} />;
    if (dragging) lifted = g;
    else pieces.push(g);
  });

  const helpId = `board-help-${useId()}`;
  return (
    <>
    <svg
      ref={svg}
      class="board"
      viewBox={`0 0 ${W} ${H}`}
      role="grid"
      aria-label={t('boardLabel')}
      aria-describedby={helpId}
      data-orientation={orientation}
      onKeyDown={onKey}
      // A press of the mouse leaves the focus where a click on the picture used to (on the page,
      // not on a point): the arrow keys then still step through the moves.
      onMouseDown={(e) => {
        e.preventDefault();
        if (!svg.current?.contains(document.activeElement)) (document.activeElement as HTMLElement | null)?.blur?.();
      }}
      onPointerDown={onDown}
      onPointerMove={onMoveEv}
      onPointerUp={onUp}
      onPointerCancel={() => setDrag(null)}
    >
      <rect x="0" y="0" width={W} height={H} rx="8" class="board-bg" />
      <Grid flip={flip} />
      {lastMove &&
        [lastMove.from, lastMove.to].map((s) => {
          const { x, y } = toXY(s);
          return <rect key={`lm${s}`} class="last-move" data-last-move={squareName(s)} x={x - CELL / 2 + 3} y={y - CELL / 2 + 3} width={CELL - 6} height={CELL - 6} rx="6" />;
        })}
      {premove &&
        [premove.from, premove.to].map((s) => {
          const { x, y } = toXY(s);
          return <rect key={`pm${s}`} class="premove" data-premove={squareName(s)} x={x - CELL / 2 + 3} y={y - CELL / 2 + 3} width={CELL - 6} height={CELL - 6} rx="6" />;
        })}
      {checkSquare != null && (() => {
        const { x, y } = toXY(checkSquare);
        return <circle class="check" data-check={squareName(checkSquare)} cx={x} cy={y} r={R + 6} />;
      })()}
      {pieces}
      {targets.map((s) => {
        const { x, y } = toXY(s);
        return position.board[s] ? (
          <circle key={`t${s}`} class="hint capture" data-hint={squareName(s)} cx={x} cy={y} r={R + 2} />
        ) : (
          <circle key={`t${s}`} class="hint" data-hint={squareName(s)} cx={x} cy={y} r="9" />
        );
      })}
      {lifted}
      {/* Invisible hit areas on top, in rows as drawn: the grid's cells, named for screen
          readers (and by data-square for tests); the cursor's is in the Tab order and outlined. */}
      {Array.from({ length: 10 }, (_, row) => (
        <g key={`row${row}`} role="row">
          {Array.from({ length: 9 }, (_, col) => {
            const s = squareDrawnAt(col, row);
            const { x, y } = toXY(s);
            return (
              <rect
                key={`h${s}`}
                class="hit"
                role="gridcell"
                data-square={squareName(s)}
                aria-label={cellLabel(s)}
                aria-selected={s === sel}
                tabindex={s === cursor ? 0 : -1}
                // The focused point is the cursor (moved by arrows, or a screen reader's own cursor).
                onFocus={() => setCursor(s)}
                x={x - CELL / 2}
                y={y - CELL / 2}
                width={CELL}
                height={CELL}
              />
            );
          })}
        </g>
      ))}
    </svg>
    <p class="sr-only" id={helpId}>{t('boardHelp')}</p>
    <p class="sr-only" role="status" data-testid="board-announce">{zhParts(said)}</p>
    </>
  );
}

// Arrow keys as [columns, rows] on the board as drawn.
const ARROWS: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

// "red cannon 炮", "红炮", "face-down red piece": never more than the colour of a face-down piece.
export function pieceName(pc: Piece): string {
  return t(`piece.${pc.color}${pc.type}` as Key);
}

function PieceGlyph(props: { piece: Piece; x: number; y: number; square: string; selected: boolean; lifted: boolean; revealed: boolean }) {
  const { piece, x, y, square, selected, lifted, revealed } = props;
  const dark = piece.type === 'X';
  const cls = `piece ${piece.color === 'r' ? 'red' : 'black'}${dark ? ' dark' : ''}${selected ? ' selected' : ''}${lifted ? ' lifted' : ''}${revealed && !dark ? ' revealed' : ''}`;
  // A face-down piece carries no identity at all in the DOM: only its colour.
  return (
    <g class={cls} data-piece={`${piece.color}${dark ? 'X' : piece.type}`} data-at={square} transform={`translate(${x} ${y})`}>
      <g class="face" lang={ZH}>
      <circle r={R} class="piece-body" />
      <circle r={R - 4} class="piece-ring" />
      {dark ? <text class="piece-back" dy="0.35em">?</text> : <text dy="0.35em">{PIECE_CHARS[piece.color][piece.type]}</text>}
      </g>
    </g>
  );
}

function Grid({ flip }: { flip: boolean }) {
  const lines: preact.JSX.Element[] = [];
  const x0 = MARGIN;
  const y0 = MARGIN;
  for (let row = 0; row < 10; row++) lines.push(<line key={`r${row}`} x1={x0} y1={y0 + row * CELL} x2={x0 + 8 * CELL} y2={y0 + row * CELL} />);
  for (let col = 0; col < 9; col++) {
    if (col === 0 || col === 8) lines.push(<line key={`c${col}`} x1={x0 + col * CELL} y1={y0} x2={x0 + col * CELL} y2={y0 + 9 * CELL} />);
    else {
      lines.push(<line key={`ct${col}`} x1={x0 + col * CELL} y1={y0} x2={x0 + col * CELL} y2={y0 + 4 * CELL} />);
      lines.push(<line key={`cb${col}`} x1={x0 + col * CELL} y1={y0 + 5 * CELL} x2={x0 + col * CELL} y2={y0 + 9 * CELL} />);
    }
  }
  for (const top of [0, 7]) {
    lines.push(<line key={`pa${top}`} x1={x0 + 3 * CELL} y1={y0 + top * CELL} x2={x0 + 5 * CELL} y2={y0 + (top + 2) * CELL} />);
    lines.push(<line key={`pb${top}`} x1={x0 + 5 * CELL} y1={y0 + top * CELL} x2={x0 + 3 * CELL} y2={y0 + (top + 2) * CELL} />);
  }
  const riverY = y0 + 4.5 * CELL;
  // Files numbered the traditional way, each side from its own right (as the move list counts
  // them: Black's horse on h9 stands on its file 8, "马８进７"). Red's 一 is file i, Black's 1 is
  // file a. Left to right as drawn: with Red at the bottom 九…一 below and 1…9 above; with Black at
  // the bottom (its own view, or flipped) 9…1 below and 一…九 above.
  const redNums = ['九', '八', '七', '六', '五', '四', '三', '二', '一'];
  const blackNums = ['1', '2', '3', '4', '5', '6', '7', '8', '9'];
  const bottomNums = flip ? [...blackNums].reverse() : redNums;
  const topNums = flip ? [...redNums].reverse() : blackNums;
  return (
    <g class="grid" lang={ZH}>
      {lines}
      <text class="river" x={x0 + 2 * CELL} y={riverY} dy="0.35em">楚 河</text>
      <text class="river" x={x0 + 6 * CELL} y={riverY} dy="0.35em">漢 界</text>
      {bottomNums.map((n, i) => (
        <text key={`bn${i}`} class="file-num" x={x0 + i * CELL} y={H - 3}>{n}</text>
      ))}
      {topNums.map((n, i) => (
        <text key={`tn${i}`} class="file-num" x={x0 + i * CELL} y={13}>{n}</text>
      ))}
    </g>
  );
}
