import { describe, expect, it } from 'vitest';
import { assignmentDisagreement, capturedNamed, identitiesOf, turnedUpAtEnd } from '../src/game/commitment';
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

  it('names the captured face-down pieces from the assignment, each by the square it was taken on', () => {
    const ids = identitiesOf(ASSIGNMENT)!;
    const named = (s: string) => [...ids].find(([sq]) => squareName(sq) === s)?.[1];
    // Red's face-down b2 piece (a cannon by its square) takes b9, black's h7 takes h0: two captures
    // of face-down pieces, the second already known to this viewer (its capturer).
    const moves = [{ iccs: 'b2b9', reveal: named('b2') }, { iccs: 'h7h0', reveal: named('h7')!.toLowerCase() }];
    const captured = [
      { owner: 'b', type: '', wasDark: true },
      { owner: 'r', type: 'R', wasDark: true }, // the capturer's own knowledge stays as it was
    ];
    const out = capturedNamed(JIEQI_START, moves, captured, ASSIGNMENT);
    expect(out.map((c) => c.type)).toEqual([named('b9'), 'R']);
    expect(out[0].owner).toBe('b');
    // Not an assignment: unchanged.
    expect(capturedNamed(JIEQI_START, moves, captured, '').map((c) => c.type)).toEqual(['', 'R']);
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

// A matching hash only proves the assignment was fixed at the start; the verdict also checks that
// the game was played with it (review, 2026-12-04: a server revealing as it pleased, or publishing
// thirty chariots with a matching hash, was "Verified").
describe('the game against the published assignment', () => {
  it('agrees when every reveal and named capture is the assignment\'s', () => {
    // b2 is Red's ninth start square (P); b9 Black's second (p); the cannon's move over b7 reveals and captures.
    expect(assignmentDisagreement(JIEQI_START, [{ iccs: 'b2b9', reveal: 'P', capturedType: 'p' }], ASSIGNMENT)).toBe('');
    expect(assignmentDisagreement(JIEQI_START, [{ iccs: 'a3a4', reveal: 'P' }, { iccs: 'a6a5', reveal: 'p' }], ASSIGNMENT)).toBe('');
  });

  it('catches a reveal the assignment does not have', () => {
    const why = assignmentDisagreement(JIEQI_START, [{ iccs: 'a3a4', reveal: 'R' }], ASSIGNMENT);
    expect(why).toContain('move 1 revealed R on a3');
  });

  it('catches a named capture the assignment does not have', () => {
    const why = assignmentDisagreement(JIEQI_START, [{ iccs: 'b2b9', reveal: 'P', capturedType: 'r' }], ASSIGNMENT);
    expect(why).toContain('captured R on b9');
  });

  it('catches an assignment that is not the set', () => {
    expect(assignmentDisagreement(JIEQI_START, [], 'R'.repeat(15) + 'r'.repeat(15))).toContain('not the set');
  });
});
