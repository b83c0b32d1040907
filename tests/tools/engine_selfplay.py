#!/usr/bin/env python3
# Usage: tests/tools/engine_selfplay.py "A's xq bestmove flags" "B's flags" GAMES [XQ]
# Self-play between two engine settings (Xiangqi), via build/bin/xq: each game opens with 2 random
# plies, colours alternate; a game ends when `xq judge` says so, or at 300 plies (draw).
import random, subprocess, sys
XQ = sys.argv[4] if len(sys.argv) > 4 else 'build/bin/xq'
def run(*a):
    return subprocess.run([XQ, *a], capture_output=True, text=True).stdout.strip().splitlines()
def play(a_args, b_args, games, seed):
    rnd = random.Random(seed); score = 0.0; results = []
    for g in range(games):
        moves = []
        for _ in range(2):
            fen = run('fen', '--variant', 'xiangqi', '--moves', ' '.join(moves))[-1] if moves else None
            legal = run('legal', '--variant', 'xiangqi', *(['--fen', fen] if fen else []))
            moves.append(rnd.choice(legal[-1].split() if len(legal) == 1 else [l.split()[0] for l in legal]))
        a_red = g % 2 == 0
        outcome = 'draw move_limit_300'
        while len(moves) < 300:
            verdict = run('judge', '--variant', 'xiangqi', '--moves', ' '.join(moves))[-1]
            if verdict != 'ongoing':
                outcome = verdict; break
            fen = run('fen', '--variant', 'xiangqi', '--moves', ' '.join(moves))[-1]
            red_to_move = fen.split()[1] == 'w'
            args = a_args if red_to_move == a_red else b_args
            mv = run('bestmove', '--variant', 'xiangqi', '--fen', fen, '--seed', str(rnd.randrange(1 << 30)), *args)[-1].split()[0]
            moves.append(mv)
        a_won = (outcome.startswith('red-wins') and a_red) or (outcome.startswith('black-wins') and not a_red)
        b_won = (outcome.startswith('red-wins') and not a_red) or (outcome.startswith('black-wins') and a_red)
        score += 1 if a_won else 0 if b_won else 0.5
        results.append(('A' if a_won else 'B' if b_won else '=') + f'({len(moves)})')
        print(g, outcome, 'A red' if a_red else 'A black', len(moves), flush=True)
    print('A score', score, 'of', games, ' '.join(results))
if __name__ == '__main__':
    a = sys.argv[1].split(); b = sys.argv[2].split(); n = int(sys.argv[3])
    play(a, b, n, 7)
