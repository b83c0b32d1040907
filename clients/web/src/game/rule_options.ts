// A game's rule options beyond the ruleset (docs/adjudication.md "Options for clubs"): what the
// seek form sends and how a game's options are shown. Defaults are sent as nothing at all.
import { t } from '../i18n';

export const DEFAULT_REPETITIONS = 3;
export const REPETITION_CHOICES = [2, 3, 4, 5, 6, 8, 10, 12];

export interface RuleOptionsView {
  repetitions?: number | null;
  pawnsAdvisorsElephantsFree?: boolean | null;
}

// The `rule_options` of a create_seek / challenge; undefined when every option is the default.
export function ruleOptions(repetitions: number, pawnsAdvisorsElephantsFree: boolean): RuleOptionsView | undefined {
  const out: RuleOptionsView = {};
  if (repetitions !== DEFAULT_REPETITIONS) out.repetitions = repetitions;
  if (pawnsAdvisorsElephantsFree) out.pawnsAdvisorsElephantsFree = true;
  return Object.keys(out).length ? out : undefined;
}

// Labels for a game's non-default options (the game page and the lobby show them as tags).
export function ruleOptionTags(o: RuleOptionsView | null | undefined): string[] {
  const tags: string[] = [];
  const n = o?.repetitions ?? 0;
  if (n && n !== DEFAULT_REPETITIONS) tags.push(t('repetitionsTag', { n: String(n) }));
  if (o?.pawnsAdvisorsElephantsFree) tags.push(t('paeFreeTag'));
  return tags;
}
