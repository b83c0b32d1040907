#include <gtest/gtest.h>

#include "rules/fen.h"

using namespace xq;

TEST(Fen, StartPositionsRoundTrip) {
  EXPECT_EQ(to_fen(parse_fen(kXiangqiStartFen, Variant::Xiangqi)), kXiangqiStartFen);
  EXPECT_EQ(to_fen(parse_fen(kJieqiStartFen, Variant::Jieqi)), kJieqiStartFen);
  EXPECT_EQ(to_fen(Position::xiangqi_start()), kXiangqiStartFen);
  EXPECT_EQ(to_fen(Position::jieqi_start()), kJieqiStartFen);
}

TEST(Fen, ShortFormAndRedAsR) {
  Position p = parse_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", Variant::Xiangqi);
  EXPECT_EQ(to_fen(p), kXiangqiStartFen);
  Position q = parse_fen("4k4/9/9/9/9/9/9/9/9/3K5 r", Variant::Xiangqi);
  EXPECT_EQ(q.side_to_move(), Color::Red);
  Position b = parse_fen("4k4/9/9/9/9/9/9/9/9/3K5 b - - 7 30", Variant::Xiangqi);
  EXPECT_EQ(b.side_to_move(), Color::Black);
  EXPECT_EQ(b.halfmove_clock, 7);
  EXPECT_EQ(b.fullmove_number, 30);
}

TEST(Fen, AcceptsHorseAndElephantAliases) {
  Position p = parse_fen("4k4/9/9/9/9/9/9/9/9/2EKH4 w", Variant::Xiangqi);
  EXPECT_EQ(type_of(p.at(parse_square("c0"))), Elephant);
  EXPECT_EQ(type_of(p.at(parse_square("e0"))), Horse);
}

TEST(Fen, JieqiPoolDerivedWhenMissing) {
  Position p = parse_fen("xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w", Variant::Jieqi);
  EXPECT_EQ(p.variant(), Variant::Jieqi);
  EXPECT_EQ(pool_to_string(p.pool()), "R2A2C2P5N2B2r2a2c2p5n2b2");
}

// Face-down pieces are Jieqi's: a Xiangqi FEN holding them is refused rather than read as Jieqi
// (that mixed the games: Jieqi moves under Xiangqi's limits).
TEST(Fen, XiangqiRefusesFaceDownPieces) {
  EXPECT_THROW(parse_fen("xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w", Variant::Xiangqi), FenError);
  EXPECT_THROW(parse_fen("3k5/9/9/9/9/9/9/3A5/9/4K3X w R1 0 1", Variant::Xiangqi), FenError);
}

class BadFen : public ::testing::TestWithParam<const char*> {};
TEST_P(BadFen, IsRejectedWithAMessage) {
  try {
    parse_fen(GetParam(), Variant::Xiangqi);
    FAIL() << "accepted: " << GetParam();
  } catch (const FenError& e) {
    EXPECT_GT(std::string(e.what()).size(), 5u);
  }
}
INSTANTIATE_TEST_SUITE_P(
    Cases, BadFen,
    ::testing::Values("", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9 w",     // 9 ranks
                      "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR/9 w",  // 11 ranks
                      "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w",  // 8 files
                      "rnbakabnrr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",  // 10 files
                      "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAZABNR w",  // bad letter
                      "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x",  // bad side
                      "4k4/9/9/9/9/9/9/9/9/9 w",                                        // no red king
                      "4k4/9/9/9/9/9/9/9/9/3KK4 w",                                      // two kings
                      "4k4/9/9/9/9/9/9/9/9/K8 w",                                        // king outside palace
                      "4k4/9/9/9/9/9/9/9/9/4K4 w",                                       // facing kings, black in check
                      "4k4/9/9/9/9/9/9/9/9/3K1PPPPPP w",                                 // pawns behind start
                      "4k4/9/9/9/4X4/9/9/9/9/3K5 w",                                     // dark piece off its square
                      "4k4/9/9/9/9/9/9/9/9/3XK4 w A0",                                   // pool smaller than dark count
                      "4k4/9/9/9/9/9/9/9/9/3K5 w - - x 1",                               // bad counters
                      "RRRk5/9/9/9/9/9/9/9/9/3K5 w",                                     // too many rooks
                      "3k5/9/9/9/9/9/9/9/9/A3K4 w",                                      // advisor off the palace
                      "3k5/9/9/9/9/9/9/9/9/1B2K4 w",                                     // elephant on b0
                      "4k4/9/2b6/9/9/9/9/9/9/3K5 w",                                     // black elephant on c7
                      "3k5/9/9/9/9/9/1P7/9/9/4K4 w",                                     // uncrossed soldier on an odd file
                      "rnbakabnr/45/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",  // "45" for 9 empty squares
                      "4k4/9/9/9/9/9/9/9/9/3K11111 w"));                                 // empty squares one digit each

// Every square a Xiangqi advisor, elephant or uncrossed soldier can reach is accepted (the others
// are refused above); Jieqi's revealed advisors and elephants may stand anywhere.
TEST(Fen, XiangqiPiecesOnlyWhereTheyCanGo) {
  for (const char* fen : {"3k5/9/9/9/9/9/9/3A1A3/9/4K4 w", "3k5/9/9/9/9/9/9/9/4A4/3AK4 w",
                          "3k5/9/9/9/9/9/9/B7B/9/4K4 w", "3k5/9/9/9/9/2B3B2/9/9/9/4K4 w",
                          "3k5/9/9/9/9/9/9/9/9/2B1K1B2 w", "3k5/9/9/9/9/9/9/4B4/9/4K4 w",
                          "2bakab2/9/9/9/9/9/9/9/9/3K5 w", "4k4/9/b7b/9/9/9/9/9/9/3K5 w",
                          "4k4/9/9/9/2b3b2/9/9/9/9/3K5 w", "3k5/9/4b4/9/9/9/9/9/9/4K4 w",
                          "4k4/4a4/3a5/9/9/9/9/9/9/3K5 w",
                          "3k5/9/9/9/1P7/9/P1P1P4/9/9/4K4 w"})  // b5 has crossed the river
    EXPECT_NO_THROW(parse_fen(fen, Variant::Xiangqi)) << fen;
  EXPECT_NO_THROW(parse_fen("3k5/9/9/9/9/9/9/9/9/A3K3X w R1", Variant::Jieqi));
}

TEST(Fen, SquaresParse) {
  EXPECT_EQ(parse_square("a0"), 0);
  EXPECT_EQ(parse_square("i9"), 89);
  EXPECT_EQ(parse_square("j0"), kNoSquare);
  EXPECT_EQ(parse_square("a"), kNoSquare);
  EXPECT_EQ(square_name(parse_square("e7")), "e7");
}

// Mutated FENs: the parser either accepts (and then round-trips) or throws FenError; nothing else.
TEST(Fen, MutationsNeverCrashAndAcceptedOnesRoundTrip) {
  const std::string seeds[] = {kXiangqiStartFen, kJieqiStartFen, "3k5/9/9/9/9/9/9/9/4A4/3KN4 w - - 0 1",
                               "4k4/9/9/9/9/4r4/9/9/9/3XKX3 w A2 0 1"};
  const std::string alphabet = "0123456789/ -wbrRkKaAbBnNcCpPxXeEhHz";
  uint64_t state = 12345;
  auto next = [&] { return state = state * 6364136223846793005ULL + 1442695040888963407ULL, state >> 33; };
  int accepted = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string f = seeds[next() % 4];
    int edits = 1 + next() % 3;
    for (int e = 0; e < edits; ++e) {
      size_t pos = next() % (f.size() + 1);
      switch (next() % 3) {
        case 0: if (pos < f.size()) f.erase(pos, 1); break;
        case 1: f.insert(pos, 1, alphabet[next() % alphabet.size()]); break;
        default: if (pos < f.size()) f[pos] = alphabet[next() % alphabet.size()];
      }
    }
    for (Variant v : {Variant::Xiangqi, Variant::Jieqi}) {
      try {
        Position p = parse_fen(f, v);
        ++accepted;
        Position q = parse_fen(to_fen(p), p.variant());
        EXPECT_EQ(to_fen(q), to_fen(p)) << f;
        MoveList list;
        p.generate_legal(list);  // must not crash on any accepted position
      } catch (const FenError&) {
      }
    }
  }
  EXPECT_GT(accepted, 100);
}
