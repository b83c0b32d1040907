import { describe, expect, it } from 'vitest';
import { reasonText } from '../src/i18n';

describe('result reasons', () => {
  it('a game ended by a ban reads as the opponent banned', () => {
    expect(reasonText('banned')).toBe('opponent banned');
  });
});
