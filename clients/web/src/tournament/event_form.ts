// The event form's state (times in minutes and seconds, lists as text) and the API's event
// settings, both ways: a new event's body (POST /api/events), an event's settings read back into
// the form, and the changes an organiser sends (POST /api/events/{id}/settings).
import { DEFAULT_RULE_OPTIONS, ruleOptionsJson, type RuleOptionsInput } from '../game/rule_options';
import { TIEBREAK_PRESETS, defaultTiebreakPreset, eventIdFrom, parsePairs } from './logic';
import type { EventConfig } from './types';

// The pairing and scoring policies a regulation may set (docs/tournaments.md), with the server's
// defaults: sent with every event, so the form shows what the event will do.
export const POLICY_DEFAULTS = {
  colour_rules_hard: true,
  relax_colour_last_round_topscorers: true,
  forfeit_counts_as_met: false,
  bye_blocked_by_forfeit_win: true,
  forfeit_opp_as_bye: false,
  absent_as_bye: false,
  bye_counts_as_win: false,
  forfeit_win_counts_as_win: false,
};
export type Policy = keyof typeof POLICY_DEFAULTS;
export const POLICIES = Object.keys(POLICY_DEFAULTS) as Policy[];

export const NEW_EVENT_FORM = {
  id: '',
  name: '',
  club_id: '',
  variant: 'xiangqi',
  ruleset: 'cxa',
  capture_visibility: 'capturer',
  rules: DEFAULT_RULE_OPTIONS as RuleOptionsInput,
  minutes: 15,
  increment: 0,
  no_show_minutes: 10,
  spectator_delay_s: 0,
  access: 'open',
  join_code: '', // when editing: blank keeps the event's code (the server never shows it)
  auto_rounds: true,
  late_join_until_round: 1,
  playoff: false,
  playoff_after_round: 0,
  playoff_size: 4,
  start: '', // datetime-local
  rounds: 7,
  games_per_round: 1,
  round1: 'adjacent-alternating',
  seed: '',
  tiebreak_mode: 'preset',
  tiebreak_preset: '', // '' = the variant's default (the server's): Jieqi's for Jieqi, CXA 14.3.1 for Xiangqi
  tiebreaks: 'opp_score, progressive, sonneborn_berger, wins, lot',
  max_forfeits: 3,
  bye_opp: 0,
  policies: { ...POLICY_DEFAULTS },
  forbidden: '',
  win_points: 2,
  draw_points: 1,
  loss_points: 0,
};
export type EventFormState = typeof NEW_EVENT_FORM;

// A new event for a club (its page's "New event for this club"): the club's id, members only.
export function clubEventForm(clubId: string): EventFormState {
  return { ...NEW_EVENT_FORM, club_id: clubId, access: 'members' };
}

// What the body is for: a new event; the changes to an event in registration (every setting but
// those fixed at creation); or to one that has started (only what is about the rounds to come:
// the matchmaker refuses the rest).
export type FormMode = 'create' | 'registration' | 'running';

// The forbidden pairs' text did not parse; `message` is the part that did not.
export class BadPairsError extends Error {}

// An event's settings as the form shows them.
export function formFromConfig(cfg: EventConfig): EventFormState {
  const p = cfg.pairing as EventConfig['pairing'] & Record<string, unknown>;
  const list = p.tiebreaks ?? [];
  const preset = Object.keys(TIEBREAK_PRESETS).find((k) => TIEBREAK_PRESETS[k].join() === list.join());
  const policies = { ...POLICY_DEFAULTS };
  for (const k of POLICIES) if (typeof p[k] === 'boolean') policies[k] = p[k] as boolean;
  return {
    ...NEW_EVENT_FORM,
    id: cfg.id,
    name: cfg.name,
    club_id: cfg.club_id ?? '',
    variant: cfg.variant,
    ruleset: cfg.ruleset,
    capture_visibility: cfg.capture_visibility ?? 'capturer',
    rules: {
      repetitions: cfg.repetitions ?? DEFAULT_RULE_OPTIONS.repetitions,
      paeFree: !!cfg.pawns_advisors_elephants_free,
      moveLimitMoves: (cfg.move_limit_plies ?? 0) / 2,
      countedChecks: cfg.counted_checks_per_side != null ? String(cfg.counted_checks_per_side) : 'default',
      requestedLimitMoves: (cfg.requested_move_limit_plies ?? 0) / 2,
      requestedLimitForcingCap: cfg.requested_move_limit_forcing_cap ?? 0,
    },
    minutes: cfg.initial_ms / 60_000,
    increment: cfg.increment_ms / 1000,
    no_show_minutes: cfg.no_show_ms / 60_000,
    spectator_delay_s: (cfg.spectator_delay_ms ?? 0) / 1000,
    access: cfg.access,
    join_code: '',
    auto_rounds: cfg.auto_rounds,
    late_join_until_round: cfg.late_join_until_round,
    playoff: cfg.playoff_after_round > 0,
    playoff_after_round: cfg.playoff_after_round,
    playoff_size: cfg.playoff_size,
    start: cfg.start_ms ? localDateTime(cfg.start_ms) : '',
    rounds: p.rounds,
    games_per_round: p.games_per_round,
    round1: p.round1,
    seed: p.seed != null ? String(p.seed) : '',
    tiebreak_mode: preset || !list.length ? 'preset' : 'custom',
    tiebreak_preset: preset ?? '',
    tiebreaks: list.length ? list.join(', ') : NEW_EVENT_FORM.tiebreaks,
    max_forfeits: p.max_forfeits,
    bye_opp: p.bye_opp ?? 0,
    policies,
    forbidden: (p.forbidden ?? []).map(([a, b]) => `${a}-${b}`).join(', '),
    win_points: p.win_points,
    draw_points: p.draw_points,
    loss_points: p.loss_points,
  };
}

// The tiebreak preset the form shows and sends: until the organiser picks one, the variant's.
export function formPreset(f: EventFormState): string {
  return f.tiebreak_preset || defaultTiebreakPreset(f.variant);
}

const RULE_OPTION_KEYS = [
  'repetitions',
  'pawns_advisors_elephants_free',
  'move_limit_plies',
  'counted_checks_per_side',
  'requested_move_limit_plies',
  'requested_move_limit_forcing_cap',
];

// The request body. `newSeed` gives a new event whose seed was left blank a fresh one: the
// server's default is 0, the same for every event (and so the same draw for the same
// registration order). Throws BadPairsError for forbidden pairs it cannot read.
export function eventSettingsBody(f: EventFormState, mode: FormMode, newSeed: () => number): Record<string, unknown> {
  const timing = {
    name: f.name.trim(),
    initial_ms: Math.round(f.minutes * 60_000),
    increment_ms: Math.round(f.increment * 1000),
    no_show_ms: Math.round(f.no_show_minutes * 60_000),
    spectator_delay_ms: Math.round(f.spectator_delay_s * 1000),
    access: f.access,
    auto_rounds: f.auto_rounds,
    late_join_until_round: f.late_join_until_round,
    playoff_after_round: f.playoff ? f.playoff_after_round || f.rounds : 0,
    playoff_size: f.playoff_size,
  };
  // The join code is never shown back: blank while editing keeps the event's.
  const code = f.access === 'code' && (mode === 'create' || f.join_code) ? { join_code: f.join_code } : {};
  if (mode === 'running') return { ...timing, ...code, pairing: { rounds: f.rounds } };

  let forbidden: [number, number][] = [];
  try {
    forbidden = parsePairs(f.forbidden);
  } catch (e) {
    throw new BadPairsError((e as Error).message);
  }
  const pairing: Record<string, unknown> = {
    rounds: f.rounds,
    games_per_round: f.games_per_round,
    round1: f.round1,
    max_forfeits: f.max_forfeits,
    bye_opp: f.bye_opp,
    win_points: f.win_points,
    draw_points: f.draw_points,
    loss_points: f.loss_points,
    ...f.policies,
  };
  if (f.seed.trim()) pairing.seed = Number(f.seed);
  else if (mode === 'create') pairing.seed = newSeed();
  // Editing sends the list even when empty: clearing it is a change.
  if (forbidden.length || mode !== 'create') pairing.forbidden = forbidden;
  if (f.tiebreak_mode === 'preset') pairing.tiebreak_preset = formPreset(f);
  else pairing.tiebreaks = f.tiebreaks.split(/[\s,]+/).filter(Boolean);
  const body: Record<string, unknown> = { ...timing, ...code, ruleset: f.ruleset, pairing };
  if (f.variant === 'jieqi') body.capture_visibility = f.capture_visibility;
  const rules = ruleOptionsJson(f.rules, f.variant === 'jieqi');
  if (mode === 'create') {
    body.id = f.id.trim() || eventIdFrom(f.name);
    body.variant = f.variant;
    if (f.club_id.trim()) body.club_id = f.club_id.trim();
    Object.assign(body, rules);
  } else {
    // An option back at its default is sent as null (the server then drops the event's).
    for (const k of RULE_OPTION_KEYS) body[k] = rules[k] ?? null;
  }
  if (f.start) body.start_ms = new Date(f.start).getTime();
  return body;
}

// Unix ms → the value of an <input type="datetime-local"> (local time, minutes).
function localDateTime(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
