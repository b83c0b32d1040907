// Is a seek about to be made the same as one the user has open already? Pressing "Create seek"
// twice (a slow network, an impatient tap) would otherwise list two identical seeks of one player.
// Compared as the lobby shows seeks: variant, time control, colour, ruleset, rated and the rule
// options' tags (the server fills in defaults, so the raw option objects may differ). Challenges
// (a seek for one named user) are never the same as an open seek.
import type { Seek } from '../net/proto';
import { ruleOptionTags, type RuleOptionsView } from '../game/rule_options';

// A create_seek request's fields (as the seek form fills them; unset ones read as the defaults).
export interface SeekSpec {
  variant?: number | null;
  timeControl?: { initialMs?: number | null; incrementMs?: number | null } | null;
  color?: number | null;
  ruleset?: string | null;
  rated?: boolean | null;
  ruleOptions?: RuleOptionsView | null;
}

export function sameSeek(spec: SeekSpec, s: Seek): boolean {
  return (
    !s.targetUserId &&
    (s.variant ?? 0) === (spec.variant ?? 0) &&
    (s.timeControl?.initialMs ?? 0) === (spec.timeControl?.initialMs ?? 0) &&
    (s.timeControl?.incrementMs ?? 0) === (spec.timeControl?.incrementMs ?? 0) &&
    (s.color ?? 0) === (spec.color ?? 0) &&
    (s.ruleset || 'cxa') === (spec.ruleset || 'cxa') &&
    !!s.rated === !!spec.rated &&
    ruleOptionTags(s.ruleOptions).join('|') === ruleOptionTags(spec.ruleOptions).join('|')
  );
}

// The user's own open seek identical to `spec`, if any.
export function openTwin(spec: SeekSpec, seeks: Seek[], me: string | undefined): Seek | undefined {
  return me ? seeks.find((s) => s.owner?.userId === me && sameSeek(spec, s)) : undefined;
}
