// Small display helpers shared by the pages.
import { hasKey, reasonText, t } from '../i18n';
import { Outcome, type GameResult } from '../net/proto';

export function tcText(tc: { initialMs?: number; incrementMs?: number } | null | undefined): string {
  if (!tc) return '';
  const ms = tc.initialMs ?? 0;
  const inc = Math.round((tc.incrementMs ?? 0) / 1000);
  if (ms < 60_000) return `${t('tcSeconds', { s: Math.round(ms / 1000) })}+${inc}`;
  const min = ms / 60_000;
  return `${Number.isInteger(min) ? min : min.toFixed(1)}+${inc}`;
}

// A quick-pairing pool ("xiangqi:300000+3") as "Xiangqi 5+3".
export function poolLabel(name: string): string {
  const [v, tc] = name.split(':');
  const [ms, inc] = (tc ?? '').split('+').map(Number);
  return `${v === 'jieqi' ? t('jieqi') : t('xiangqi')} ${tcText({ initialMs: ms, incrementMs: inc })}`;
}

// A game's or event's rule set as a tag ("CXA"; 中国象协 in Chinese); an unknown one in capitals.
export function rulesetTag(ruleset: string | undefined): string {
  const key = `rsTag.${ruleset ?? ''}`;
  return hasKey(key) ? t(key) : (ruleset ?? '').toUpperCase();
}

// The rule sets a seek or an event may choose, with their names.
export const RULESETS = [['cxa', 'rules.cxa'], ['axf', 'rules.axf'], ['computer', 'rules.computer']] as const;

// "10 min", "90 s", "1 min 30 s" (a rule's time, not a clock).
export function durationText(ms: number): string {
  const total = Math.round(ms / 1000);
  const min = Math.floor(total / 60);
  const s = total % 60;
  if (!min) return t('durationS', { s });
  return s ? t('durationMinS', { min, s }) : t('durationMin', { min });
}

// 9:05 above a minute, 0:09.3 in the last ten seconds (tenths matter then).
export function clockText(ms: number): string {
  const total = Math.max(0, ms);
  const m = Math.floor(total / 60_000);
  const s = Math.floor((total % 60_000) / 1000);
  if (total < 10_000) return `${m}:${String(s).padStart(2, '0')}.${Math.floor((total % 1000) / 100)}`;
  return `${m}:${String(s).padStart(2, '0')}`;
}

// "Black wins: perpetual check". A double forfeit comes as a draw on the wire but is no draw: the
// tournament scores it 0–0, both lost (docs/protocol.md), so it is named as such.
export function resultText(r: GameResult): string {
  if (r.reason === 'double_forfeit') return t('doubleForfeitResult');
  const head =
    r.outcome === Outcome.RED_WINS ? t('redWins') : r.outcome === Outcome.BLACK_WINS ? t('blackWins') : r.outcome === Outcome.DRAW ? t('draw') : t('aborted');
  if (r.outcome === Outcome.ABORTED) return head;
  return r.reason ? `${head}${t('resultSep')}${reasonText(r.reason)}` : head;
}

// Whether a finished game changed ratings: rated, and neither aborted nor ended before both sides
// moved (the server's rule, gameserver/store/rating_store.cpp; docs/protocol.md "Rated seeks").
// The game lists carry only `rated` (the seek's setting), so a list would call an aborted game
// "Rated" without this.
export function ratingCounted(g: { rated?: boolean; reason?: string; plies?: number }): boolean {
  return !!g.rated && g.reason !== 'abort' && (g.plies ?? 0) >= 2;
}
