import { describe, expect, it } from 'vitest';
import { lowTimeMarksReached } from '../src/ui/GameAnnouncer';

describe('low time: the marks at which one\'s own clock is said', () => {
  it('are 60, 20 and 10 seconds, each once', () => {
    expect(lowTimeMarksReached(75_000, [])).toEqual([]);
    expect(lowTimeMarksReached(60_000, [])).toEqual([60]);
    expect(lowTimeMarksReached(59_400, [60])).toEqual([]);
    expect(lowTimeMarksReached(19_900, [60])).toEqual([20]);
    expect(lowTimeMarksReached(9_000, [60, 20])).toEqual([10]);
    expect(lowTimeMarksReached(3_000, [60, 20, 10])).toEqual([]);
  });
  it('passed together (a tab asleep) all come at once', () => {
    expect(lowTimeMarksReached(8_000, [60])).toEqual([20, 10]);
  });
});
