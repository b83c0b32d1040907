// #/analysis[?fen=…]: a board on which anyone (signed in or not) plays moves for both sides from a
// position (the Xiangqi start by default), with the line in a move list, back/forward buttons and
// arrow keys, flip, and the current FEN in a field that also takes a pasted one. Legal moves only
// (rules/movegen.ts); the state lives in analysis/analysis.ts.
import { useEffect, useState } from 'preact/hooks';
import type { App } from '../app';
import { fenAt, goTo, play, positionAt, startAnalysis, type Analysis } from '../analysis/analysis';
import { FenError, writeFen } from '../analysis/fen';
import { t, useLang } from '../i18n';
import { parseIccs, XIANGQI_START, type Color, type Square } from '../rules/board';
import { inCheck, legalMoves } from '../rules/movegen';
import { Board } from './Board';
import { MoveEntry } from './MoveEntry';
import { MoveList } from './MoveList';
import { errorProps } from './form_validity';

function fenErrorText(e: unknown): string {
  return e instanceof FenError ? t('badFen', { why: t(e.why, e.params) }) : String(e);
}

// The analysis from the route's FEN, or from the start with the reason a linked FEN was refused.
function initial(fen: string | undefined): { a: Analysis; error: string } {
  try {
    return { a: startAnalysis(fen ?? XIANGQI_START), error: '' };
  } catch (e) {
    return { a: startAnalysis(XIANGQI_START), error: fenErrorText(e) };
  }
}

// The orientation chosen, kept for the next position: loading a FEN changes the route and so
// mounts the page afresh (Shell keys it by the FEN), which would otherwise turn the board back.
let flippedBefore = false;

export function AnalysisPage({ app, fen }: { app: App; fen?: string }) {
  useLang();
  const [first] = useState(() => initial(fen));
  const [a, setA] = useState(first.a);
  const [fenError, setFenError] = useState(first.error);
  const [draft, setDraft] = useState<string | null>(null); // the FEN field while being edited
  const [note, setNote] = useState('');
  const [flipped, setFlipped] = useState(flippedBefore);
  const [illegal, setIllegal] = useState<'check' | 'illegal' | null>(null);

  // A move or a step shows another position: an unfinished edit of the FEN field (and the refusal
  // of one) would no longer be about the board, and the field would not show the FEN on view; nor
  // would "not a legal move", said of the position before.
  const show = (step: (x: Analysis) => Analysis) => {
    setA(step);
    setDraft(null);
    setFenError('');
    setIllegal(null);
  };

  // Arrow keys step through the line (not while typing in the FEN field).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.target as HTMLElement)?.tagName === 'INPUT') return;
      if (e.key === 'ArrowLeft') show((x) => goTo(x, x.ply - 1));
      else if (e.key === 'ArrowRight') show((x) => goTo(x, x.ply + 1));
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const position = positionAt(a);
  const fenNow = fenAt(a);
  const last = a.ply > 0 ? parseIccs(a.moves[a.ply - 1].iccs) : null;
  const check = inCheck(position.board, position.turn, false);
  const checkSquare: Square | null = check ? position.board.findIndex((p) => p?.type === 'K' && p.color === position.turn) : null;
  const side = (c: Color) => (c === 'r' ? t('red') : t('black'));
  let status = position.turn === 'r' ? t('redToMove') : t('blackToMove');
  // In Xiangqi a side without a legal move loses, mated or stalemated.
  if (legalMoves(position).length === 0) status = t(check ? 'analysisMate' : 'analysisNoMoves', { side: side(position.turn) });
  else if (check) status = `${status} · ${t('inCheckNow')}`;

  // A FEN typed or pasted in: the board starts again from it, and the address says so (a link to
  // share, a reload keeps it). A refused one leaves the board as it was.
  const load = (text: string) => {
    try {
      const next = startAnalysis(text);
      setA(next);
      setDraft(null);
      setFenError('');
      setNote('');
      app.navigate(`#/analysis?fen=${encodeURIComponent(writeFen(next.start))}`);
    } catch (e) {
      setDraft(text);
      setFenError(fenErrorText(e));
    }
  };
  const copy = () => {
    const done = () => setNote(t('fenCopied'));
    // The clipboard API needs a secure context; elsewhere the text is selected for Ctrl+C.
    const select = () => (document.querySelector('[data-testid=analysis-fen]') as HTMLInputElement | null)?.select();
    if (navigator.clipboard) navigator.clipboard.writeText(fenNow).then(done, select);
    else select();
  };

  const playMove = (from: Square, to: Square) => {
    const next = play(a, { from, to });
    setIllegal(null);
    if (next) show(() => next);
  };

  return (
    <div class="game-page analysis-page" data-testid="analysis-page" data-fen={fenNow}>
      <div class="board-col">
        <Board
          position={position}
          orientation={flipped ? 'b' : 'r'}
          lastMove={last}
          checkSquare={checkSquare}
          movable={position.turn}
          onMove={playMove}
          onIllegal={setIllegal}
        />
        <MoveEntry position={position} movable={position.turn} onMove={playMove} />
      </div>
      <aside class="side-col">
        <div class="panel info">
          <h2>{t('analysisBoard')}</h2>
          <p class="status" data-testid="analysis-status" role="status">{status}</p>
          {illegal && (
            <p class="muted" data-testid="illegal-move" data-reason={illegal} role="status">
              {t(illegal === 'check' ? 'illegalMoveCheck' : 'illegalMove')}
            </p>
          )}
          <p class="muted">{t('analysisHelp')}</p>
          <label class="fen-field">
            <span>{t('fen')}</span>
            <input
              data-testid="analysis-fen"
              {...errorProps('analysis-fen-error', !!fenError)}
              spellcheck={false}
              autocomplete="off"
              title={t('fenHelp')}
              value={draft ?? fenNow}
              onInput={(e) => setDraft((e.currentTarget as HTMLInputElement).value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') load((e.currentTarget as HTMLInputElement).value);
                else if (e.key === 'Escape') {
                  setDraft(null);
                  setFenError('');
                }
              }}
              onPaste={(e) => {
                const text = e.clipboardData?.getData('text') ?? '';
                if (!text.trim()) return;
                e.preventDefault();
                load(text);
              }}
            />
          </label>
          <div class="actions small">
            <button data-testid="analysis-load" onClick={() => load(draft ?? fenNow)}>{t('loadFen')}</button>
            <button data-testid="analysis-copy" onClick={copy}>{t('copyFen')}</button>
            <button data-testid="analysis-flip" onClick={() => setFlipped((flippedBefore = !flipped))}>{t('flip')}</button>
            <button data-testid="analysis-reset" onClick={() => load(XIANGQI_START)}>{t('analysisStart')}</button>
          </div>
          {fenError && <p class="error" id="analysis-fen-error" data-testid="analysis-fen-error" role="alert">{fenError}</p>}
          {note && <p class="muted" role="status">{note}</p>}
        </div>
        <MoveList moves={a.moves} ply={a.ply} firstPly={(a.start.fullmove - 1) * 2 + (a.start.position.turn === 'b' ? 1 : 0)} onSelect={(p) => show((x) => goTo(x, p))} />
      </aside>
    </div>
  );
}

