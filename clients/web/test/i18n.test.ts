import { describe, expect, it } from 'vitest';
import { reasonText } from '../src/i18n';
import { durationText } from '../src/ui/format';

describe('result reasons', () => {
  it('a game ended by a ban reads as the opponent banned', () => {
    expect(reasonText('banned')).toBe('opponent banned');
  });
});

describe('rule times', () => {
  it('reads as minutes and seconds, not as a clock', () => {
    expect(durationText(600000)).toBe('10 min');
    expect(durationText(90000)).toBe('1 min 30 s');
    expect(durationText(45000)).toBe('45 s');
    expect(durationText(499)).toBe('0 s');
  });
});
