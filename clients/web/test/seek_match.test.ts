import { describe, expect, it } from 'vitest';
import { openTwin, sameSeek } from '../src/lobby/seek_match';
import type { Seek } from '../src/net/proto';

const spec = { variant: 1, timeControl: { initialMs: 600_000, incrementMs: 5000 }, color: 0, ruleset: 'cxa', rated: false };
const seek = (over: Partial<Seek> = {}): Seek =>
  ({ seekId: 's1', owner: { userId: 'u1', name: 'Li' }, variant: 1, timeControl: { initialMs: 600_000, incrementMs: 5000 }, color: 0, ruleset: 'cxa', rated: false, ...over }) as Seek;

describe('an identical open seek', () => {
  it('is the same seek whatever defaults the server filled in', () => {
    expect(sameSeek(spec, seek())).toBe(true);
    expect(sameSeek({ ...spec, ruleOptions: {} }, seek({ ruleOptions: { repetitions: 0 } } as Partial<Seek>))).toBe(true);
  });

  it('differs by any setting the lobby shows', () => {
    expect(sameSeek(spec, seek({ variant: 2 } as Partial<Seek>))).toBe(false);
    expect(sameSeek(spec, seek({ timeControl: { initialMs: 300_000, incrementMs: 5000 } } as Partial<Seek>))).toBe(false);
    expect(sameSeek(spec, seek({ timeControl: { initialMs: 600_000, incrementMs: 0 } } as Partial<Seek>))).toBe(false);
    expect(sameSeek(spec, seek({ color: 1 } as Partial<Seek>))).toBe(false);
    expect(sameSeek(spec, seek({ ruleset: 'axf' }))).toBe(false);
    expect(sameSeek(spec, seek({ rated: true }))).toBe(false);
    expect(sameSeek(spec, seek({ ruleOptions: { pawnsAdvisorsElephantsFree: true } } as Partial<Seek>))).toBe(false);
  });

  it('is never a challenge, and only one of the user\'s own', () => {
    expect(sameSeek(spec, seek({ targetUserId: 'u2' }))).toBe(false);
    expect(openTwin(spec, [seek()], 'u1')?.seekId).toBe('s1');
    expect(openTwin(spec, [seek()], 'u2')).toBeUndefined();
    expect(openTwin(spec, [seek()], undefined)).toBeUndefined();
  });
});
