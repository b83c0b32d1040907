import { describe, expect, it } from 'vitest';
import { chartPoints } from '../src/ui/RatingChart';

const p = (rating: number, i: number) => ({ at: i, rating, game_id: `g${i}` });

describe('chartPoints', () => {
  it('spreads the games evenly and puts the best rating on top', () => {
    const xy = chartPoints([1500, 1600, 1550].map(p));
    expect(xy.map((q) => q.x)).toEqual([6, 160, 314]);
    expect(xy[1].y).toBe(6); // highest
    expect(xy[0].y).toBe(84); // lowest
    expect(xy[2].y).toBeCloseTo(45);
  });

  it('keeps a flat history flat and a single game in the middle', () => {
    const flat = chartPoints([1500, 1502].map(p));
    expect(Math.abs(flat[0].y - flat[1].y)).toBeLessThan(4);
    expect(chartPoints([p(1500, 0)])).toEqual([{ x: 160, y: 45 }]);
    expect(chartPoints([])).toEqual([]);
  });
});
