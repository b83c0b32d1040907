// A game's rule options beyond the ruleset (docs/adjudication.md "Options for clubs"): what the
// seek form sends and how a game's options are shown. Defaults are sent as nothing at all.
import { t } from '../i18n';

export const DEFAULT_REPETITIONS = 3;
export const REPETITION_CHOICES = [2, 3, 4, 5, 6, 8, 10, 12];
// The "checks in the move limit" choices: the value sent ('default' = nothing) and its label key.
export const COUNTED_CHECKS_CHOICES = [
  ['default', 'cc.default'],
  ['-1', 'cc.all'],
  ['0', 'cc.none'],
  ['10', 'cc.ten'],
] as const;

export interface RuleOptionsView {
  repetitions?: number | null;
  pawnsAdvisorsElephantsFree?: boolean | null;
  moveLimitPlies?: number | null; // 0 / unset = the variant's (Xiangqi 120, Jieqi 80)
  countedChecksPerSide?: number | null; // unset = the variant's; -1 = all; 0 = none
  requestedMoveLimitPlies?: number | null; // a player may ask for a move limit ("限着"); 0 / unset = no
  requestedMoveLimitForcingCap?: number | null; // the requester's kills and chases counted there, at most; 0 / unset = all
}

// What a form holds: the move limits in moves (per side), the counted checks as a choice value.
export interface RuleOptionsInput {
  repetitions: number;
  paeFree: boolean;
  moveLimitMoves: number;
  countedChecks: string; // one of COUNTED_CHECKS_CHOICES' values
  requestedLimitMoves: number; // 0 = no move limit on request
  requestedLimitForcingCap: number; // the requester's kills and chases counted there, at most; 0 = all
}
export const DEFAULT_RULE_OPTIONS: RuleOptionsInput = {
  repetitions: DEFAULT_REPETITIONS,
  paeFree: false,
  moveLimitMoves: 0,
  countedChecks: 'default',
  requestedLimitMoves: 0,
  requestedLimitForcingCap: 0,
};

// The `rule_options` of a create_seek / challenge; undefined when every option is the default.
// `jieqi`: the free pawns/advisors/elephants rule exists only there.
export function ruleOptions(i: RuleOptionsInput, jieqi: boolean): RuleOptionsView | undefined {
  const out: RuleOptionsView = {};
  if (i.repetitions !== DEFAULT_REPETITIONS) out.repetitions = i.repetitions;
  if (jieqi && i.paeFree) out.pawnsAdvisorsElephantsFree = true;
  if (i.moveLimitMoves > 0) out.moveLimitPlies = Math.round(i.moveLimitMoves * 2);
  if (i.countedChecks !== 'default') out.countedChecksPerSide = Number(i.countedChecks);
  if (i.requestedLimitMoves > 0) out.requestedMoveLimitPlies = Math.round(i.requestedLimitMoves * 2);
  if (i.requestedLimitMoves > 0 && i.requestedLimitForcingCap > 0) out.requestedMoveLimitForcingCap = Math.round(i.requestedLimitForcingCap);
  return Object.keys(out).length ? out : undefined;
}

// The same as the HTTP API's event settings name them.
export function ruleOptionsJson(i: RuleOptionsInput, jieqi: boolean): Record<string, number | boolean> {
  const o = ruleOptions(i, jieqi) ?? {};
  const out: Record<string, number | boolean> = {};
  if (o.repetitions != null) out.repetitions = o.repetitions;
  if (o.pawnsAdvisorsElephantsFree) out.pawns_advisors_elephants_free = true;
  if (o.moveLimitPlies != null) out.move_limit_plies = o.moveLimitPlies;
  if (o.countedChecksPerSide != null) out.counted_checks_per_side = o.countedChecksPerSide;
  if (o.requestedMoveLimitPlies != null) out.requested_move_limit_plies = o.requestedMoveLimitPlies;
  if (o.requestedMoveLimitForcingCap != null) out.requested_move_limit_forcing_cap = o.requestedMoveLimitForcingCap;
  return out;
}

// Labels for a game's non-default options (the game page and the lobby show them as tags).
export function ruleOptionTags(o: RuleOptionsView | null | undefined): string[] {
  const tags: string[] = [];
  const n = o?.repetitions ?? 0;
  if (n && n !== DEFAULT_REPETITIONS) tags.push(t('repetitionsTag', { n: String(n) }));
  if (o?.pawnsAdvisorsElephantsFree) tags.push(t('paeFreeTag'));
  if (o?.moveLimitPlies) tags.push(t('moveLimitTag', { n: String(o.moveLimitPlies / 2) }));
  const checks = o?.countedChecksPerSide;
  if (checks != null) tags.push(checks < 0 ? t('checksAllCountTag') : checks === 0 ? t('checksNotCountedTag') : t('checksCountedTag', { n: String(checks) }));
  if (o?.requestedMoveLimitPlies) tags.push(t('requestedLimitTag', { n: String(o.requestedMoveLimitPlies / 2) }));
  if (o?.requestedMoveLimitPlies && o.requestedMoveLimitForcingCap)
    tags.push(t('requestedLimitForcingCapTag', { n: String(o.requestedMoveLimitForcingCap) }));
  return tags;
}
