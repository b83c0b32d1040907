import { describe, expect, it } from 'vitest';
import {
  CLUB_NAME_MAX_BYTES,
  REMEMBERED_MAX,
  clubNameProblem,
  clubsOf,
  displayName,
  forgetClub,
  loadRememberedClubs,
  mayCreateClubEvent,
  mayRunClub,
  parseRemembered,
  rememberClub,
  validClubId,
  withClub,
} from '../src/tournament/clubs';
import { clubEventForm, eventSettingsBody } from '../src/tournament/event_form';
import { setLang, t } from '../src/i18n';

// A Storage stand-in (localStorage is not there in vitest's node environment).
function memoryStore(initial: Record<string, string> = {}) {
  const m = new Map(Object.entries(initial));
  return {
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, v),
    raw: m,
  };
}

describe('club ids', () => {
  it("take the server's characters only (A-Z a-z 0-9 - _), up to 40", () => {
    expect(validClubId('senior-club_2026')).toBe(true);
    expect(validClubId('A')).toBe(true);
    expect(validClubId('x'.repeat(40))).toBe(true);
    expect(validClubId('x'.repeat(41))).toBe(false);
    expect(validClubId('')).toBe(false);
    expect(validClubId('bad id')).toBe(false);
    expect(validClubId('club/1')).toBe(false);
    expect(validClubId('象棋')).toBe(false);
    expect(validClubId('a.b')).toBe(false);
  });
});

describe('remembered clubs', () => {
  it('put the club last created or opened first, once, with its latest name', () => {
    let list = withClub([], { id: 'a', name: 'Alpha' });
    list = withClub(list, { id: 'b', name: 'Beta' });
    list = withClub(list, { id: 'a', name: 'Alpha club' });
    expect(list).toEqual([
      { id: 'a', name: 'Alpha club' },
      { id: 'b', name: 'Beta' },
    ]);
  });

  it('keep at most REMEMBERED_MAX, dropping the oldest', () => {
    let list: { id: string; name: string }[] = [];
    for (let i = 0; i < REMEMBERED_MAX + 5; i++) list = withClub(list, { id: `c${i}`, name: '' });
    expect(list.length).toBe(REMEMBERED_MAX);
    expect(list[0].id).toBe(`c${REMEMBERED_MAX + 4}`);
    expect(list.some((c) => c.id === 'c0')).toBe(false);
  });

  it('never remember an id the server would not give', () => {
    expect(withClub([], { id: 'no spaces', name: 'x' })).toEqual([]);
  });

  it('read what was stored strictly: junk, bad ids and duplicates are left out', () => {
    expect(parseRemembered(null)).toEqual([]);
    expect(parseRemembered('not json')).toEqual([]);
    expect(parseRemembered('{"id":"a"}')).toEqual([]);
    expect(parseRemembered(JSON.stringify([{ id: 'a', name: 'A' }, { id: 'bad id' }, 7, null, { id: 'a', name: 'again' }, { id: 'b', name: 3 }]))).toEqual([
      { id: 'a', name: 'A' },
      { id: 'b', name: '' },
    ]);
  });

  it('survive in the storage: remembered, read back, forgotten', () => {
    const s = memoryStore();
    rememberClub({ id: 'east', name: 'East' }, s);
    rememberClub({ id: 'west', name: 'West' }, s);
    expect(loadRememberedClubs(s).map((c) => c.id)).toEqual(['west', 'east']);
    expect(forgetClub('west', s)).toEqual([{ id: 'east', name: 'East' }]);
    expect(loadRememberedClubs(s)).toEqual([{ id: 'east', name: 'East' }]);
  });

  it('do not break the page when the storage refuses', () => {
    const broken = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    };
    expect(loadRememberedClubs(broken)).toEqual([]);
    expect(() => rememberClub({ id: 'a', name: '' }, broken)).not.toThrow();
  });
});

describe('club people', () => {
  it('are shown by name, or by id when none is known (a guest)', () => {
    const names = new Map([['u-00000000000000a1', 'Lin']]);
    expect(displayName('u-00000000000000a1', names)).toBe('Lin');
    expect(displayName('g-00000000000000b2', names)).toBe('g-00000000000000b2');
  });
});

describe('a new event for a club', () => {
  it('sends the club id and members-only access', () => {
    const body = eventSettingsBody({ ...clubEventForm('east'), name: 'East club night' }, 'create', () => 7);
    expect(body.club_id).toBe('east');
    expect(body.access).toBe('members');
  });
});

describe('club routes', () => {
  it('#/clubs, #/club/ID and the event form for a club', async () => {
    const { parseRoute } = await import('../src/app');
    expect(parseRoute('#/clubs')).toEqual({ page: 'clubs' });
    expect(parseRoute('#/club/senior-club')).toEqual({ page: 'club', id: 'senior-club' });
    expect(parseRoute('#/club')).toEqual({ page: 'lobby' });
    expect(parseRoute('#/tournaments?club=senior-club')).toEqual({ page: 'tournaments', club: 'senior-club' });
    expect(parseRoute('#/tournaments')).toEqual({ page: 'tournaments', id: undefined });
    expect(parseRoute('#/tournaments/spring')).toEqual({ page: 'tournaments', id: 'spring' });
  });
});

describe('club texts', () => {
  it('say why an account name is refused, in both languages', () => {
    setLang('en');
    expect(t('noAccountMember', { name: 'Bob' })).toBe('No account is named “Bob” — guests cannot be members.');
    setLang('zh');
    expect(t('noAccountMember', { name: 'Bob' })).toContain('游客不能成为成员');
    expect(t('clubRoleNeeded')).toContain('组织者');
    setLang('en');
  });
});

describe('clubsOf', () => {
  const club = (id: string, name: string, organisers: string[], members: string[]) => ({ id, name, organisers, members });
  const all = [
    club('b', 'Beta', ['u-1'], ['u-2']),
    club('a', 'Alpha', ['u-3'], ['u-1']),
    club('c', 'Gamma', ['u-9'], ['u-8']),
    club('d', 'Delta', ['u-1', 'u-2'], []),
  ];
  it('keeps the clubs one organises first, then those one belongs to, each by name', () => {
    expect(clubsOf(all, 'u-1').map((c) => c.id)).toEqual(['b', 'd', 'a']);
    expect(clubsOf(all, 'u-2').map((c) => c.id)).toEqual(['d', 'b']);
  });
  it('is empty for nobody, or a user in no club', () => {
    expect(clubsOf(all, '')).toEqual([]);
    expect(clubsOf(all, 'u-7')).toEqual([]);
  });
  it('reads a club with missing lists as empty ones', () => {
    expect(clubsOf([{ id: 'x', name: 'X', organisers: ['u-1'] } as never], 'u-1')[0].members).toEqual([]);
  });
});

describe('who is offered what on a club page', () => {
  const club = { organisers: ['u-org'] };
  it('the club is run (rename, delete, people) by its organisers, whatever their role, and admins', () => {
    expect(mayRunClub(club, 'u-org', 'player')).toBe(true);
    expect(mayRunClub(club, 'u-org', 'organiser')).toBe(true);
    expect(mayRunClub(club, 'u-other', 'admin')).toBe(true);
    expect(mayRunClub(club, 'u-other', 'organiser')).toBe(false);
    expect(mayRunClub(club, '', 'player')).toBe(false);
  });
  it('"New event for this club" only to a club organiser with the organiser role, or an admin', () => {
    expect(mayCreateClubEvent(club, 'u-org', 'organiser')).toBe(true);
    expect(mayCreateClubEvent(club, 'u-org', 'player')).toBe(false);
    expect(mayCreateClubEvent(club, 'u-other', 'organiser')).toBe(false);
    expect(mayCreateClubEvent(club, 'u-other', 'admin')).toBe(true);
    expect(mayCreateClubEvent(club, '', 'organiser')).toBe(false);
  });
});

describe('a club name', () => {
  it('is 1..100 bytes of UTF-8 once trimmed, as the server counts', () => {
    expect(clubNameProblem('East Side Club')).toBeNull();
    expect(clubNameProblem('  padded  ')).toBeNull();
    expect(clubNameProblem('')).toBe('empty');
    expect(clubNameProblem('   ')).toBe('empty');
    expect(clubNameProblem('n'.repeat(CLUB_NAME_MAX_BYTES))).toBeNull();
    expect(clubNameProblem('n'.repeat(CLUB_NAME_MAX_BYTES + 1))).toBe('tooLong');
    expect(clubNameProblem('象'.repeat(33))).toBeNull(); // 99 bytes
    expect(clubNameProblem('象'.repeat(34))).toBe('tooLong'); // 102 bytes, 34 characters
  });
  it('refusals and the deletion texts are worded in both languages', () => {
    for (const lang of ['en', 'zh'] as const) {
      setLang(lang);
      for (const key of ['clubNameTooLong', 'clubNameRule', 'clubHasLiveEvents', 'clubIdWasDeleted'] as const) expect(t(key)).not.toBe(key);
      expect(t('eventClubGone', { id: 'east' })).toContain('east');
    }
    expect(t('clubHasLiveEvents')).toContain('未结束或未取消');
    setLang('en');
    expect(t('confirmDeleteClub', { name: 'East' })).toBe('Delete the club “East” with its lists of organisers and members? This cannot be undone.');
  });
});
