import { describe, expect, it } from 'vitest';
import { identitiesOf, turnedUpAtEnd } from '../src/game/commitment';
import { JIEQI_START, parseFen, squareName } from '../src/rules/board';

// An assignment as the server publishes it: Red's 15 in start-square order, then Black's.
const ASSIGNMENT = 'RNBACPRNPAPBPCP' + 'cprnbapcpnpbarp';

describe('the published Jieqi assignment', () => {
  it('maps each start square to its identity, in the server order', () => {
    const ids = identitiesOf(ASSIGNMENT)!;
    const named = (s: string) => [...ids].find(([sq]) => squareName(sq) === s)?.[1];
    expect(ids.size).toBe(30);
    expect(named('a0')).toBe('R'); // Red's first start square
    expect(named('i0')).toBe('N'); // Red's eighth
    expect(named('b2')).toBe('P');
    expect(named('i3')).toBe('P'); // Red's last
    expect(named('a9')).toBe('C'); // Black's first, upper-cased
    expect(named('i6')).toBe('P'); // Black's last
  });

  it('refuses what is not an assignment', () => {
    expect(identitiesOf('')).toBeNull();
    expect(identitiesOf(ASSIGNMENT.toLowerCase())).toBeNull();
    expect(identitiesOf(ASSIGNMENT.slice(1))).toBeNull();
    expect(identitiesOf('K' + ASSIGNMENT.slice(1))).toBeNull();
  });

  it('turns up only the pieces still face down, keeping their colours', () => {
    const pos = parseFen(JIEQI_START.replace('XXXXKXXXX', 'RXXXKXXXX')); // a0 already face up
    const { position, turned } = turnedUpAtEnd(pos, ASSIGNMENT);
    expect(turned.length).toBe(29);
    expect(position.board.some((p) => p?.type === 'X')).toBe(false);
    const at = (s: string) => position.board.find((_, i) => squareName(i) === s);
    expect(at('b0')).toEqual({ color: 'r', type: 'N' });
    expect(at('a9')).toEqual({ color: 'b', type: 'C' });
    expect(turned.map(squareName)).not.toContain('a0');
  });
});
