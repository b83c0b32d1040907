// What a screen reader hears as a game goes, in one polite live region: each move of the opponent
// (of either side, for a spectator) once, in the notation the move list shows, with a capture, a
// Jieqi piece turned up, check and whose move it is now; the player's own move once, when the
// server has it, in the server's notation (not "Sending move…" and then the new state; "sending
// again" only when the server does not answer); an offer of a draw or a takeback from the
// opponent; the result. The region is always there, empty, before it first speaks: one added
// together with its text is not read out by every screen reader (as FirstMoveDue in GamePage).
// The visible status line is therefore no live region itself: it would say the turn a second time.
// The player's own time running low is said here too, once at each of LOW_TIME_MARKS.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { GameModel } from '../game/model';
import { t, type Key } from '../i18n';
import { Outcome, type MoveView } from '../net/proto';
import { parseIccs, type Color, type PieceType, type Position } from '../rules/board';
import { pieceName } from './Board';
import { resultText } from './format';
import { zhParts } from './lang';

interface Seen {
  moves: number;
  over: boolean;
  pending: string | null;
  retrying: boolean;
  offers: string;
}

export function GameAnnouncer({ game }: { game: GameModel }) {
  const [said, setSaid] = useState({ text: '', count: 0 });
  const seen = useRef<Seen | null>(null);
  const now: Seen = {
    moves: game.moves.length,
    over: game.over,
    pending: game.pending?.iccs ?? null,
    retrying: !!game.pending?.retries,
    offers: opponentOffers(game).join(),
  };
  useEffect(() => {
    const before = seen.current;
    seen.current = now;
    // What was there when the page opened is not news.
    if (!before) return;
    const news = newsSince(game, before, now);
    if (news.length) say(news.join(t('sentenceGap')));
  }, [now.moves, now.over, now.pending, now.retrying, now.offers]);
  const say = (text: string) => setSaid((s) => ({ text, count: s.count + 1 }));
  useLowTimeWarnings(game, say);
  // The same words twice in a row (a second draw offer) must still be read: every other time
  // they carry a space at the end, so that the region's text changes.
  return <p class="sr-only" role="status" data-testid="game-announce">{zhParts(said.text + (said.count % 2 ? ' ' : ''))}</p>;
}

// The opponent's standing offers, by the keys of their announcements.
function opponentOffers(game: GameModel): Key[] {
  const you = game.you;
  if (!you || game.over) return [];
  const them: Color = you === 'r' ? 'b' : 'r';
  const offers: Key[] = [];
  if (game.drawOfferBy === them) offers.push('drawOffered');
  if (game.takebackBy === them) offers.push('takebackAsked');
  return offers;
}

function newsSince(game: GameModel, before: Seen, now: Seen): string[] {
  const news: string[] = [];
  const you = game.you;
  for (let k = before.moves; k < now.moves; k++) {
    const position = game.positionAt(k);
    news.push(sentence(moveNews(game.moves[k], position, position.turn === you)));
  }
  if (now.moves > before.moves && !now.over) {
    const mv = game.moves[now.moves - 1];
    if (mv.check) news.push(t('inCheckNow'));
    if (game.myTurn()) news.push(sentence(t('yourTurn')));
  }
  if (now.retrying && !before.retrying) news.push(t('sendingAgain'));
  for (const offer of now.offers.split(',')) {
    if (offer && !before.offers.split(',').includes(offer)) news.push(sentence(t(offer as Key, { side: t(you === 'r' ? 'black' : 'red') })));
  }
  if (now.over && !before.over && game.result) news.push(sentence(resultText(game.result)), ...resultForYou(game));
  return news;
}

// "Black: 卒１进１ (a6a5), takes the red pawn 兵, turns up the black horse 馬", from the position
// before the move.
function moveNews(mv: MoveView, before: Position, ours: boolean): string {
  const side = before.turn;
  const m = parseIccs(mv.iccs);
  const move = moveText(mv.chinese, mv.iccs.slice(0, 4));
  const parts = [ours ? t('saidYou', { move }) : t('saidMove', { side: t(side === 'r' ? 'red' : 'black'), move })];
  const victim = m && before.board[m.to];
  if (mv.capture && victim) {
    // A face-down piece taken is named only where this viewer was told what it was.
    const type = victim.type === 'X' && mv.capturedType ? (mv.capturedType.toUpperCase() as PieceType) : victim.type;
    parts.push(t('saidTakes', { piece: pieceName({ color: victim.color, type }) }));
  }
  // The Chinese notation already says 翻马 (the server's); the reveal is added where it does not.
  if (mv.reveal && !mv.chinese.includes('翻')) parts.push(t('saidReveals', { piece: pieceName({ color: side, type: mv.reveal.toUpperCase() as PieceType }) }));
  return parts.join(t('commaSep'));
}

const moveText = (chinese: string, iccs: string) => (chinese ? `${chinese} (${iccs})` : iccs);
const sentence = (s: string) => s + t('fullStop');

function resultForYou(game: GameModel): string[] {
  const r = game.result!;
  const you = game.you;
  if (!you || !(r.outcome === Outcome.RED_WINS || r.outcome === Outcome.BLACK_WINS || r.reason === 'double_forfeit')) return [];
  return [t(r.reason !== 'double_forfeit' && (r.outcome === Outcome.RED_WINS) === (you === 'r') ? 'youWon' : 'youLost')];
}

// Seconds left on one's own clock at which it is said, once each: a clock read out at every tick
// would drown everything else.
export const LOW_TIME_MARKS = [60, 20, 10] as const;

// The marks the clock is at or under that were not said yet.
export function lowTimeMarksReached(ms: number, said: readonly number[]): number[] {
  return LOW_TIME_MARKS.filter((s) => ms <= s * 1000 && !said.includes(s));
}

// Watches the player's own clock while it runs; a mark already passed when the page opened is not
// news. Marks passed together (a tab asleep) are said as the lowest of them. Not while the page's
// link is down: its clock then stands at the last value it knew, and the server's own reading,
// once back, says how much is left (a mark passed meanwhile is said then).
function useLowTimeWarnings(game: GameModel, say: (text: string) => void) {
  const said = useRef<number[] | null>(null);
  const you = game.you;
  const paused = game.reconnecting;
  const running = !!you && !game.over && !paused && game.clock.running === you;
  useEffect(() => {
    if (!you || game.over || paused) return;
    const check = () => {
      const reached = lowTimeMarksReached(game.clockNow(you), said.current ?? []);
      if (said.current === null) said.current = reached;
      else if (reached.length) {
        said.current.push(...reached);
        say(t('lowTime', { s: Math.min(...reached) }));
      }
    };
    check();
    if (!running) return;
    const id = window.setInterval(check, 250);
    return () => window.clearInterval(id);
  }, [you, running, game.over, paused]);
}
