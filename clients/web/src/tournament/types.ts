// The tournament API's JSON shapes (docs/tournaments.md; matchmaker/service/tournament_json.cpp
// writes them). Player ids are indexes into `players` / `user_ids`; a board's `b = -2` is a bye.

export const BYE = -2;

export type EventSummary = { id: string; name: string; variant: string; stage: string; players: number; rounds: number; rounds_paired: number };

export type PairingSettings = {
  rounds: number;
  games_per_round: number;
  round1: string;
  seed?: number;
  tiebreak_preset?: string;
  tiebreaks?: string[];
  max_forfeits: number;
  bye_opp?: number; // index into BYE_OPP_POLICIES
  forbidden?: [number, number][];
  win_points: number;
  draw_points: number;
  loss_points: number;
};

export type EventConfig = {
  id: string;
  name: string;
  club_id?: string;
  organiser?: string;
  variant: string;
  ruleset: string;
  capture_visibility?: string;
  repetitions?: number; // absent = 3
  pawns_advisors_elephants_free?: boolean;
  move_limit_plies?: number; // absent = the variant's
  counted_checks_per_side?: number; // absent = the variant's; -1 all, 0 none
  requested_move_limit_plies?: number; // absent = no move limit on request
  requested_move_limit_forcing_cap?: number; // the requester's kills and chases counted there, at most; absent = all
  initial_ms: number;
  increment_ms: number;
  no_show_ms: number;
  spectator_delay_ms?: number; // spectators see each move this much later (0 = live)
  access: string;
  join_code?: string;
  auto_rounds: boolean;
  late_join_until_round: number;
  playoff_after_round: number;
  playoff_size: number;
  start_ms?: number;
  pairing: PairingSettings;
};

export type EventPlayer = { player?: number; name: string; rating?: number; number?: number; join_round?: number; withdrawn_round?: number; removed_after_round?: number; user_id?: string; disqualified?: boolean; disqualified_reason?: string; warnings?: string[] };
// The public event view names board points a_points/b_points and adds board numbers, a bye flag,
// the explain line per board and a started flag per round; the raw state uses a/b. Both are read.
export type BoardGame = { a?: number; b?: number; a_points?: number; b_points?: number; forfeit?: boolean; a_fouls?: number; b_fouls?: number };
export type Board = { board?: number; a: number; b: number; bye?: boolean; games: BoardGame[]; explain?: string; explain_zh?: string };
export type Round = { round?: number; started?: boolean; boards: Board[]; unavailable?: number[] };
export type GameSlot = {
  game_id: string;
  round: number;
  board: number;
  index: number;
  knockout?: string;
  red: number;
  black: number;
  finished: boolean;
  red_points: number;
  black_points: number;
  forfeit?: boolean;
  reason?: string;
};
export type KnockoutGame = { red: number; black: number; winner: number; loser: number };
export type Playoff = { seeds: number[]; semifinals: KnockoutGame[]; final: KnockoutGame; third: KnockoutGame };

export type EventDetail = {
  config: EventConfig;
  stage: string;
  cancel_reason?: string; // the organiser's words, once the event is cancelled
  paused_by?: 'organiser' | 'pairing'; // while paused: the organiser, or no legal pairing for the next round
  pause_reason?: string; // while paused: the organiser's words (optional) or the pairing engine's
  players: EventPlayer[];
  user_ids?: string[];
  rounds: Round[];
  explain?: string[][];
  explain_zh?: string[][];
  games: GameSlot[];
  rounds_started?: number;
  rounds_paired?: number;
  knockout_waiting?: boolean; // a play-off round after the last Swiss round waits for start-round
  playoff?: Playoff | null;
  version?: number;
};

export type StandingsRow = {
  rank: number;
  player: number;
  user_id: string;
  name: string;
  number: number;
  score: number;
  opp_score: number;
  progressive: number;
  sonneborn_berger_x2: number;
  wins: number;
  black_wins: number;
  black_games: number;
  fouls: number;
  running: number[];
  withdrawn: boolean;
  withdrawn_reason?: '' | 'withdrew' | 'forfeits' | 'disqualified';
  disqualified_reason?: string;
  place?: number;
  tiebreaks: (string | number)[];
};
export type Standings = { after_round: number; columns: string[]; rows: StandingsRow[]; final_ranking: number[] };

export type CrossCell = { opponent: number; colour: string | number; points: number | null };
export type Crosstable = { rows: { player: number; name: string; number: number; rounds: CrossCell[] }[] };

export type NextGame = { game_id?: string; round?: number; board?: number; colour?: string | number; opponent?: string | number | EventPlayer };

export type PoolInfo = { pool: string; waiting: number };
