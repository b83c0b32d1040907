#!/usr/bin/env python3
"""Random Jieqi positions (6-15 face-down pieces a side, pool consistent, legal, side to move not in
check) and 4-ply loops of face-up pieces (A x->y, B p->q, A y->x, B q->p; all legal, non-capturing).
Usage: [XQ=build/bin/xq] tests/tools/gen_jieqi_loops.py N SEED OUT [DENSE]   (OUT: lines 'FEN|m1 m2 m3 m4';
DENSE: at most this many face-up pieces a side besides the king, default 7). Written for the
2026-12-03 review of face-down identities in the label searches; tests/tools/data/random_jieqi_loops.txt
holds its output (1,800 loops, then 700 denser ones)."""
import os, random, subprocess, sys

DENSE = int(sys.argv[4]) if len(sys.argv) > 4 else 7
XQ = os.environ.get('XQ', 'build/bin/xq')  # legality and FEN checks only
FILES = 'abcdefghi'
START = {  # red start squares (non-king) -> type
    (0, 0): 'R', (1, 0): 'N', (2, 0): 'B', (3, 0): 'A', (5, 0): 'A', (6, 0): 'B', (7, 0): 'N', (8, 0): 'R',
    (1, 2): 'C', (7, 2): 'C', (0, 3): 'P', (2, 3): 'P', (4, 3): 'P', (6, 3): 'P', (8, 3): 'P'}
MATERIAL = ['A'] * 2 + ['B'] * 2 + ['N'] * 2 + ['R'] * 2 + ['C'] * 2 + ['P'] * 5


def run(args):
    r = subprocess.run([XQ] + args, capture_output=True, text=True, timeout=30)
    return r.returncode, r.stdout.strip(), r.stderr.strip()


def sq(f, r):
    return FILES[f] + str(r)


def board_from_fen(fen):
    rows = fen.split()[0].split('/')
    b = {}
    for i, row in enumerate(rows):
        r = 9 - i
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                b[(f, r)] = ch
                f += 1
    return b


def make_position(rng):
    board = {}
    pools = {}
    for color in ('red', 'black'):
        def mirror(s):
            return s if color == 'red' else (s[0], 9 - s[1])
        starts = list(START.keys())
        d = rng.randint(6, 15)
        dark = rng.sample(starts, d)
        mat = MATERIAL[:]
        rng.shuffle(mat)
        hidden = mat[:d]
        rest = mat[d:]
        n_up = 0 if not rest else rng.randint(min(1, len(rest)), min(len(rest), DENSE))
        up = rest[:n_up]
        captured = rest[n_up:]
        pool = hidden + [t for t in captured if rng.random() < 0.5]
        for s in dark:
            board[mirror(s)] = 'X' if color == 'red' else 'x'
        pools[color] = pool
        # king
        while True:
            k = mirror((rng.randint(3, 5), rng.randint(0, 2)))
            if k not in board:
                board[k] = 'K' if color == 'red' else 'k'
                break
        for t in up:
            for _ in range(200):
                s = (rng.randint(0, 8), rng.randint(0, 9))
                if s in board:
                    continue
                if color == 'black' and s in [mirror(x) for x in []]:
                    pass
                board[s] = t if color == 'red' else t.lower()
                break
    stm = rng.choice('wb')
    rows = []
    for r in range(9, -1, -1):
        row, e = '', 0
        for f in range(9):
            p = board.get((f, r))
            if p:
                if e:
                    row += str(e)
                    e = 0
                row += p
            else:
                e += 1
        if e:
            row += str(e)
        rows.append(row)
    pool = ''
    for color in ('red', 'black'):
        for t in 'RACPBN':  # any order is accepted
            n = pools[color].count(t)
            if n:
                pool += (t if color == 'red' else t.lower()) + str(n)
    if not pool:
        pool = '-'
    return '/'.join(rows) + f' {stm} {pool} 0 1'


def valid(fen):
    rc, out, err = run(['fen', '--variant', 'jieqi', '--fen', fen])
    if rc != 0 or 'error' in err or 'error' in out:
        return None
    parts = fen.split()
    parts[1] = 'b' if parts[1] == 'w' else 'w'
    rc2, out2, err2 = run(['fen', '--variant', 'jieqi', '--fen', ' '.join(parts)])
    if rc2 != 0 or 'error' in err2 or 'error' in out2:
        return None  # side to move in check
    return out.splitlines()[-1]


def legal(fen):
    rc, out, err = run(['legal', '--variant', 'jieqi', '--fen', fen])
    return out.split() if rc == 0 else []


def after(fen, m):
    rc, out, err = run(['fen', '--variant', 'jieqi', '--fen', fen, '--moves', m])
    return out.splitlines()[-1] if rc == 0 and out else None


def face_up_quiet(fen, moves):
    b = board_from_fen(fen)
    res = []
    for m in moves:
        fr = (FILES.index(m[0]), int(m[1]))
        to = (FILES.index(m[2]), int(m[3]))
        p = b.get(fr)
        if not p or p in 'Xx' or to in b:
            continue
        res.append(m)
    return res


def find_loop(rng, fen):
    p0 = fen
    a_moves = face_up_quiet(p0, legal(p0))
    rng.shuffle(a_moves)
    for a in a_moves[:6]:
        p1 = after(p0, a)
        if not p1:
            continue
        b_moves = face_up_quiet(p1, legal(p1))
        rng.shuffle(b_moves)
        for bm in b_moves[:4]:
            p2 = after(p1, bm)
            if not p2:
                continue
            a_back = a[2:4] + a[0:2]
            if a_back not in legal(p2):
                continue
            p3 = after(p2, a_back)
            b_back = bm[2:4] + bm[0:2]
            if not p3 or b_back not in legal(p3):
                continue
            return f'{a} {bm} {a_back} {b_back}'
    return None


def main():
    n, seed, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    rng = random.Random(seed)
    got = 0
    with open(out, 'w') as fo:
        while got < n:
            fen = make_position(rng)
            v = valid(fen)
            if not v:
                continue
            loop = find_loop(rng, v)
            if not loop:
                continue
            fo.write(f'{v}|{loop}\n')
            fo.flush()
            got += 1


if __name__ == '__main__':
    main()
