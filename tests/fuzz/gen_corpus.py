#!/usr/bin/env python3
"""Writes the small seed corpora in corpus/<target>/ (committed; re-run to regenerate)."""
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def write(target, name, data):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


# ---- fuzz_fen: FEN strings ----
fens = {
    "xiangqi_start": "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "jieqi_start": "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w R2A2C2P5N2B2r2a2c2p5n2b2 0 1",
    "short_form": "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b",
    "endgame": "3k5/9/9/9/9/9/9/9/4R4/4K4 b - - 12 40",
    "jieqi_mid": "x1xakx1xx/9/1c5x1/x3x1x1x/2p6/4P4/X1X3X1X/1X2C2X1/9/XX1AKAX1X w R2N2B2C1P3r2n2b2p3 3 9",
    "jieqi_revealed": "4k4/4a4/9/9/4R4/9/9/4B4/9/3AK4 w - 0 1",
    "jieqi_no_pool": "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w",
    "mate": "3akr3/4a4/9/9/9/9/9/9/9/3RK4 b - - 0 1",
    "facing": "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
    "crowded": "r1bakab1r/4n4/1cn4c1/p1p1p1p1p/9/2P6/P3P1P1P/1C2C1N2/9/RNBAKAB1R w - - 4 5",
}
for k, v in fens.items():
    write("fuzz_fen", k, v)

# ---- fuzz_moves: flags byte, seed byte, then moves ----
write("fuzz_moves", "xiangqi_text", b"\x00\x00h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 b0c2 a9b9")
write("fuzz_moves", "xiangqi_bad", b"\x00\x00h2e2 zz a0a0 j0j1 a0a10 h2e2K b0c2Z \xff\xfe h9g7X #3 #17")
write("fuzz_moves", "jieqi_text", b"\x01\x07a3a4 a6a5P h2e2 b7e7 #0 #1 #2 #3")
write("fuzz_moves", "xiangqi_index", b"\x08\x00" + bytes([5, 7, 9, 11] + [1, 2, 3, 4] * 6))
# a perpetual: rook shuffles that repeat
write("fuzz_moves", "xiangqi_cycle", b"\x00\x00h2e2 h9g7 h0h1 g7h9 h1h0 h9g7 h0h1 g7h9 h1h0 h9g7 h0h1 g7h9 h1h0")
write("fuzz_moves", "jieqi_index", b"\x09\x2a" + bytes(range(0, 200, 7)))
write("fuzz_moves", "fen_start", b"\x10\x00" + b"3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1\nd1d2 e1d1 #0 #1 #2 #3 #4")
write("fuzz_moves", "jieqi_fen_limit", b"\x31\x03" +
      b"x1xakx1xx/9/1c5x1/x3x1x1x/2p6/4P4/X1X3X1X/1X2C2X1/9/XX1AKAX1X w R2N2B2C1P3r2n2b2p3 3 9\n#1 #2 #3 #4 #5 #6 #7 #8 #9 #10 #11 #12")
write("fuzz_moves", "raw_bytes", b"\x0a\x00\x01\x02\xf2h2e2\xf3b0c2Z\x05\x06")


# ---- fuzz_session: protobuf frames ----
def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def field_bytes(num, payload):
    return varint((num << 3) | 2) + varint(len(payload)) + payload


def field_varint(num, v):
    return varint(num << 3) + varint(v)


def client(rid, body_field, body):
    return field_varint(1, rid) + field_bytes(body_field, body)


def move(rid, iccs, cmid=b"", lag=0):
    body = field_bytes(1, b"fuzz") + field_bytes(2, iccs)
    if cmid:
        body += field_bytes(3, cmid)
    if lag:
        body += field_varint(4, lag)
    return client(rid, 32, body)


def action(rid, field):  # 33 resign, 34 offer, 35 accept, 36 decline, 37 abort, 38 claim
    return client(rid, field, field_bytes(1, b"fuzz"))


def frame(side, dt, msg, extra=0):
    assert len(msg) < 256
    return bytes([side | extra, dt, len(msg)]) + msg


R, B = 0, 1
x_moves = [(R, b"h2e2"), (B, b"h9g7"), (R, b"h0g2"), (B, b"i9h9")]
write("fuzz_session", "xiangqi_moves", b"\x40\x00" + b"".join(
    frame(s, 10, move(i + 1, m, b"m%d" % i, 50)) for i, (s, m) in enumerate(x_moves)))
write("fuzz_session", "draw_offer_accept", b"\x40\x00" + frame(R, 5, move(1, b"h2e2", b"a")) + frame(R, 1, action(2, 34)) +
      frame(B, 1, action(3, 36)) + frame(B, 3, move(4, b"h9g7")) + frame(B, 1, action(5, 34)) + frame(R, 1, action(6, 35)))
write("fuzz_session", "resign", b"\x80\x00" + frame(R, 1, move(1, b"b2e2")) + frame(B, 1, action(2, 33)) + frame(R, 1, action(3, 37)))
write("fuzz_session", "abort", b"\x00\x00" + frame(B, 1, action(1, 37)) + frame(R, 1, move(2, b"h2e2")))
write("fuzz_session", "duplicate_and_bad", b"\x40\x00" + frame(R, 1, move(1, b"h2e2", b"x")) + frame(R, 1, move(2, b"h2e2", b"x")) +
      frame(B, 1, move(3, b"zz")) + frame(B, 1, move(4, b"h9g7K")) + frame(B, 1, move(5, b"a0a10")))
write("fuzz_session", "timeout", b"\x00\x00" + frame(R, 5, move(1, b"h2e2")) + frame(B, 250, move(2, b"h9g7"), 2))
write("fuzz_session", "jieqi", b"\x01\x11" + frame(R, 2, move(1, b"a3a4")) + frame(B, 2, move(2, b"a6a5P")) +
      frame(R, 2, move(3, b"h2e2")) + frame(B, 2, action(4, 34)) + frame(R, 2, action(5, 36)))
write("fuzz_session", "tournament_noshow", b"\x48\x00" + frame(R, 255, action(1, 37), 4) + frame(B, 1, action(2, 38)))
write("fuzz_session", "claim", b"\x40\x00" + frame(R, 1, move(1, b"h2e2")) + frame(B, 1, action(2, 38)) +
      frame(R, 1, field_varint(1, 7) + field_bytes(40, field_varint(1, 99))))

# structured fuzz_fen inputs: 0x01, flags, then (piece code, square) pairs
codes = "KABNRCPXkabnrcpx"


def placements(flags, items):
    out = bytearray([1, flags])
    for letter, sq in items:
        f, r = ord(sq[0]) - ord('a'), int(sq[1])
        out += bytes([codes.index(letter), r * 9 + f])
    return bytes(out)


write("fuzz_fen", "placed_rooks", placements(0, [("R", "a4"), ("R", "i5"), ("r", "a9"), ("C", "b2"), ("p", "e4")]))
write("fuzz_fen", "placed_jieqi", placements(1, [("X", "a0"), ("X", "b2"), ("x", "a6"), ("A", "c5"), ("B", "g7"), ("n", "c4")]))
# a Jieqi position with many moves (face-down rook/cannon movers plus revealed pieces)
write("fuzz_fen", "jieqi_mobile", "3k5/7R1/9/3BA1P2/5R3/9/3A2C2/1X5X1/9/X3K3X w P4 0 1")
# finding F2 (131 moves; overflowed MoveList before it held 256) and F1 (empty Jieqi pool round trip)
write("fuzz_fen", "jieqi_131_moves", "3k5/7R1/2C6/3BA1P2/5RB2/3N5/3A2C2/1X5X1/5N3/X3K3X w P4 0 1")
write("fuzz_fen", "jieqi_empty_pool", "rnbakabnr/9/7c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RcBAKABNR w - 0 2")
write("fuzz_fen", "jieqi_pool_letters", "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w RRAACCPPPPPNNBBrraaccpppppnnbb 0 1")
# finding F3: a pool field whose repeated letters sum past 255 (must be rejected)
write("fuzz_fen", "jieqi_pool_261_pawns",
      "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w R2A2C2N2B2" + "P" * 261 + "r2a2c2p5n2b2 0 1")
