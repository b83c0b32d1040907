import { describe, expect, it } from 'vitest';
import { BadPairsError, NEW_EVENT_FORM, eventSettingsBody, formFromConfig } from '../src/tournament/event_form';
import type { EventConfig } from '../src/tournament/types';

// An event as GET /api/events/{id} gives its settings (the matchmaker's config_to_json).
const stored: EventConfig = {
  id: 'spring-1',
  name: 'Spring open',
  club_id: 'club-a',
  organiser: 'u-1',
  variant: 'jieqi',
  ruleset: 'axf',
  capture_visibility: 'both',
  repetitions: 4,
  requested_move_limit_plies: 80,
  initial_ms: 1_200_000,
  increment_ms: 10_000,
  no_show_ms: 300_000,
  spectator_delay_ms: 30_000,
  access: 'code',
  auto_rounds: false,
  late_join_until_round: 2,
  playoff_after_round: 7,
  playoff_size: 4,
  start_ms: 0,
  pairing: {
    rounds: 7,
    games_per_round: 2,
    round1: 'fold',
    seed: 12345,
    tiebreaks: ['opp_score', 'wins', 'fouls', 'head_to_head', 'black_games', 'prev_round_score', 'lot'],
    max_forfeits: 2,
    bye_opp: 2,
    forbidden: [[0, 3]],
    win_points: 3,
    draw_points: 1,
    loss_points: 0,
    ...{ bye_counts_as_win: true, colour_rules_hard: false },
  },
};

const seed = () => 99;

describe('the event form', () => {
  it('reads an event back as the form shows it', () => {
    const f = formFromConfig(stored);
    expect(f.minutes).toBe(20);
    expect(f.increment).toBe(10);
    expect(f.no_show_minutes).toBe(5);
    expect(f.spectator_delay_s).toBe(30);
    expect(f.playoff).toBe(true);
    expect(f.tiebreak_mode).toBe('preset');
    expect(f.tiebreak_preset).toBe('senior');
    expect(f.forbidden).toBe('0-3');
    expect(f.seed).toBe('12345');
    expect(f.policies.bye_counts_as_win).toBe(true);
    expect(f.policies.colour_rules_hard).toBe(false);
    expect(f.policies.forfeit_counts_as_met).toBe(false);
    expect(f.rules.repetitions).toBe(4);
    expect(f.rules.requestedLimitMoves).toBe(40);
    expect(f.join_code).toBe('');
  });

  it('sends an unchanged event back unchanged, without the settings fixed at creation', () => {
    const body = eventSettingsBody(formFromConfig(stored), 'registration', seed);
    for (const fixed of ['id', 'club_id', 'variant', 'organiser']) expect(body).not.toHaveProperty(fixed);
    expect(body).not.toHaveProperty('join_code'); // blank: the event keeps its code
    expect(body).toMatchObject({
      name: 'Spring open',
      ruleset: 'axf',
      capture_visibility: 'both',
      repetitions: 4,
      requested_move_limit_plies: 80,
      move_limit_plies: null, // at its default: sent as null, so a cleared option is cleared
      initial_ms: 1_200_000,
      increment_ms: 10_000,
      no_show_ms: 300_000,
      spectator_delay_ms: 30_000,
      auto_rounds: false,
      late_join_until_round: 2,
      playoff_after_round: 7,
      playoff_size: 4,
    });
    expect(body.pairing).toMatchObject({
      rounds: 7,
      games_per_round: 2,
      round1: 'fold',
      seed: 12345,
      tiebreak_preset: 'senior',
      max_forfeits: 2,
      bye_opp: 2,
      forbidden: [[0, 3]],
      win_points: 3,
      bye_counts_as_win: true,
      colour_rules_hard: false,
    });
  });

  it('sends only what may still change once the event has started', () => {
    const f = { ...formFromConfig(stored), rounds: 5, minutes: 10, join_code: 'new-code' };
    const body = eventSettingsBody(f, 'running', seed);
    expect(Object.keys(body).sort()).toEqual(
      ['access', 'auto_rounds', 'increment_ms', 'initial_ms', 'join_code', 'late_join_until_round', 'name', 'no_show_ms',
        'pairing', 'playoff_after_round', 'playoff_size', 'spectator_delay_ms'].sort(),
    );
    expect(body.pairing).toEqual({ rounds: 5 });
    expect(body.initial_ms).toBe(600_000);
    expect(body.join_code).toBe('new-code');
  });

  it('gives a new event an id, its variant and a fresh seed', () => {
    const body = eventSettingsBody({ ...NEW_EVENT_FORM, name: 'Club night' }, 'create', seed);
    expect(body.variant).toBe('xiangqi');
    expect(String(body.id)).toMatch(/^club-night-/);
    expect((body.pairing as Record<string, unknown>).seed).toBe(99);
    expect(body).not.toHaveProperty('repetitions'); // defaults are not sent to a new event
    expect(() => eventSettingsBody({ ...NEW_EVENT_FORM, name: 'x', forbidden: '0-' }, 'create', seed)).toThrow(BadPairsError);
  });
});
