import { describe, expect, it } from 'vitest';
import { ruleOptions, ruleOptionTags } from '../src/game/rule_options';

describe('rule options', () => {
  it('sends nothing for the defaults and only what differs otherwise', () => {
    expect(ruleOptions(3, false)).toBeUndefined();
    expect(ruleOptions(5, false)).toEqual({ repetitions: 5 });
    expect(ruleOptions(3, true)).toEqual({ pawnsAdvisorsElephantsFree: true });
    expect(ruleOptions(3, false, 40, '0')).toEqual({ moveLimitPlies: 80, countedChecksPerSide: 0 });
    expect(ruleOptions(3, false, 0, 'default')).toBeUndefined();
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
});
