import { describe, expect, it } from 'vitest';
import { DEFAULT_RULE_OPTIONS, ruleOptions, ruleOptionsJson, ruleOptionTags } from '../src/game/rule_options';

describe('rule options', () => {
  it('sends nothing for the defaults and only what differs otherwise', () => {
    const d = DEFAULT_RULE_OPTIONS;
    expect(ruleOptions(d, true)).toBeUndefined();
    expect(ruleOptions({ ...d, repetitions: 5 }, false)).toEqual({ repetitions: 5 });
    expect(ruleOptions({ ...d, paeFree: true }, true)).toEqual({ pawnsAdvisorsElephantsFree: true });
    expect(ruleOptions({ ...d, paeFree: true }, false)).toBeUndefined(); // a Jieqi rule only
    expect(ruleOptions({ ...d, moveLimitMoves: 40, countedChecks: '0' }, false)).toEqual({ moveLimitPlies: 80, countedChecksPerSide: 0 });
    expect(ruleOptionsJson({ ...d, moveLimitMoves: 40, countedChecks: '0', paeFree: true }, true)).toEqual({
      move_limit_plies: 80,
      counted_checks_per_side: 0,
      pawns_advisors_elephants_free: true,
    });
  });
  it('shows tags only for options that differ from the defaults', () => {
    expect(ruleOptionTags(undefined)).toEqual([]);
    expect(ruleOptionTags({ repetitions: 0, pawnsAdvisorsElephantsFree: false })).toEqual([]);
    expect(ruleOptionTags({ repetitions: 3 })).toEqual([]);
    const tags = ruleOptionTags({ repetitions: 6, pawnsAdvisorsElephantsFree: true });
    expect(tags).toHaveLength(2);
    expect(tags[0]).toContain('6');
  });
  it('shows a move limit in moves and whether checks count, 0 (none) included', () => {
    const tags = ruleOptionTags({ moveLimitPlies: 80, countedChecksPerSide: 0 });
    expect(tags).toHaveLength(2);
    expect(tags[0]).toContain('40');
    expect(ruleOptionTags({ countedChecksPerSide: null })).toEqual([]);
    expect(ruleOptionTags({ countedChecksPerSide: -1 })).toHaveLength(1);
  });
  it('sends and shows the move limit on request in moves', () => {
    const d = DEFAULT_RULE_OPTIONS;
    expect(ruleOptions({ ...d, requestedLimitMoves: 40 }, false)).toEqual({ requestedMoveLimitPlies: 80 });
    expect(ruleOptionsJson({ ...d, requestedLimitMoves: 40 }, true)).toEqual({ requested_move_limit_plies: 80 });
    const tags = ruleOptionTags({ requestedMoveLimitPlies: 80 });
    expect(tags).toHaveLength(1);
    expect(tags[0]).toContain('40');
    expect(ruleOptionTags({ requestedMoveLimitPlies: 0 })).toEqual([]);
  });
  it('shows the cap on the requester\'s kills and chases (seed 001) with the move limit on request', () => {
    const tags = ruleOptionTags({ requestedMoveLimitPlies: 80, requestedMoveLimitForcingCap: 20 });
    expect(tags).toHaveLength(2);
    expect(tags[1]).toContain('20');
    expect(ruleOptionTags({ requestedMoveLimitPlies: 80, requestedMoveLimitForcingCap: 0 })).toHaveLength(1);
    expect(ruleOptionTags({ requestedMoveLimitForcingCap: 20 })).toEqual([]);
    const d = DEFAULT_RULE_OPTIONS;
    expect(ruleOptions({ ...d, requestedLimitMoves: 40, requestedLimitForcingCap: 20 }, false)).toEqual({
      requestedMoveLimitPlies: 80,
      requestedMoveLimitForcingCap: 20,
    });
    expect(ruleOptionsJson({ ...d, requestedLimitMoves: 40, requestedLimitForcingCap: 20 }, false)).toEqual({
      requested_move_limit_plies: 80,
      requested_move_limit_forcing_cap: 20,
    });
    expect(ruleOptions({ ...d, requestedLimitForcingCap: 20 }, false)).toBeUndefined(); // no limit, no cap
  });
});
