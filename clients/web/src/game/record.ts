// Turns the server's archived record (GET /api/games/{id}, JSON) into the GameState shape the game
// page draws, so a finished game that left the server's memory can still be replayed.
import { Outcome, Side, Variant, type GameState } from '../net/proto';
import { JIEQI_START, XIANGQI_START, applyMove, boardFen, parseFen, parseIccs, type PieceType } from '../rules/board';

interface RecordJson {
  id: string;
  variant: string;
  ruleset?: string;
  rated?: boolean;
  capture_visibility?: string;
  initial_ms?: number;
  increment_ms?: number;
  red?: { user_id: string; name: string; guest: boolean };
  black?: { user_id: string; name: string; guest: boolean };
  assignment?: string;
  salt?: string;
  commitment?: string;
  moves?: { ply: number; iccs: string; chinese?: string; wxf?: string; red_ms?: number; black_ms?: number }[];
  result?: string;
  reason?: string;
  version?: number;
  fen?: string;
}

const OUTCOMES: Record<string, number> = { 'red-wins': Outcome.RED_WINS, 'black-wins': Outcome.BLACK_WINS, draw: Outcome.DRAW };

// What a face-down piece turned out to be, in the mover's own piece names (兵九进一(翻车)).
const REVEALED_AS: Record<'r' | 'b', Record<string, string>> = {
  r: { K: '帅', A: '仕', B: '相', N: '马', R: '车', C: '炮', P: '兵' },
  b: { K: '将', A: '士', B: '象', N: '马', R: '车', C: '炮', P: '卒' },
};

// Records archived before the server wrote reveals into its Chinese notation lack them.
export function withReveal(chinese: string, reveal: string | null | undefined, mover: 'r' | 'b' | undefined): string {
  if (!reveal || !mover || !chinese || chinese.includes('(翻')) return chinese;
  const name = REVEALED_AS[mover][reveal.toUpperCase()];
  return name ? `${chinese}(翻${name})` : chinese;
}

export function stateFromRecord(r: RecordJson): GameState {
  const jieqi = r.variant === 'jieqi';
  const startFen = jieqi ? JIEQI_START : XIANGQI_START;
  let pos = parseFen(startFen);
  const moves: GameState['moves'] = [];
  const captured: GameState['captured'] = [];
  for (const m of r.moves ?? []) {
    const mv = parseIccs(m.iccs);
    const victim = mv ? pos.board[mv.to] : null;
    const mover = mv ? pos.board[mv.from]?.color : undefined;
    if (victim) captured.push({ owner: victim.color === 'r' ? Side.RED : Side.BLACK, type: victim.type === 'X' ? '' : victim.type, wasDark: victim.type === 'X' });
    if (mv) pos = applyMove(pos, mv, mv.reveal as PieceType | null);
    moves.push({
      ply: m.ply,
      iccs: m.iccs,
      chinese: withReveal(m.chinese ?? '', mv?.reveal, mover),
      wxf: m.wxf ?? '',
      check: false,
      reveal: mv?.reveal ?? '',
      capture: !!victim,
      capturedType: victim && victim.type !== 'X' ? victim.type : '',
      redMs: m.red_ms ?? 0,
      blackMs: m.black_ms ?? 0,
    });
  }
  const player = (p: RecordJson['red']) => ({ userId: p?.user_id ?? '', name: p?.name ?? '', guest: !!p?.guest });
  const last = moves[moves.length - 1];
  const outcome = r.reason === 'abort' ? Outcome.ABORTED : (OUTCOMES[r.result ?? ''] ?? Outcome.ONGOING);
  return {
    gameId: r.id,
    version: r.version ?? 0,
    variant: jieqi ? Variant.JIEQI : Variant.XIANGQI,
    ruleset: r.ruleset ?? '',
    rated: !!r.rated, // the seek's setting, as a live game's state says it
    timeControl: { initialMs: r.initial_ms ?? 0, incrementMs: r.increment_ms ?? 0 },
    red: player(r.red),
    black: player(r.black),
    you: Side.SIDE_NONE,
    startFen,
    fen: r.fen || `${boardFen(pos.board)} ${pos.turn === 'r' ? 'w' : 'b'}`,
    moves,
    captured,
    clock: { redMs: last?.redMs ?? r.initial_ms ?? 0, blackMs: last?.blackMs ?? r.initial_ms ?? 0, running: Side.SIDE_NONE, serverTimeMs: 0 },
    drawOfferBy: Side.SIDE_NONE,
    result: { outcome, reason: r.reason ?? '', assignment: r.assignment ?? '', salt: r.salt ?? '' },
    commitment: r.commitment ?? '',
    captureVisibility: r.capture_visibility ?? '',
  } as GameState;
}

// null: no such game; 'withheld': a game broadcast with a delay, whose record waits for its end (403).
export async function fetchRecord(id: string): Promise<GameState | null | 'withheld'> {
  const res = await fetch(`/api/games/${encodeURIComponent(id)}`);
  if (res.status === 403) return 'withheld';
  if (!res.ok) return null;
  return stateFromRecord((await res.json()) as RecordJson);
}
