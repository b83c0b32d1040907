// Regressions found by the libFuzzer targets in tests/fuzz (see docs/fuzzing.md). Each test holds
// the minimal input of one finding (all fixed since).
#include <gtest/gtest.h>

#include <cstdlib>

#include "rules/fen.h"
#include "rules/game.h"
#include "rules/position.h"

using namespace xq;

namespace {
Move mv(const char* from, const char* to) {
  return Move{static_cast<uint8_t>(parse_square(from)), static_cast<uint8_t>(parse_square(to)), NoType};
}
}  // namespace

// F1: to_fen prints an empty Jieqi pool as "-", but parse_fen reads "-" as "no pool given" and
// derives the pool from the board (every identity not face up counts as unknown). A Jieqi position
// with everything revealed and a face-up piece captured does not survive the round trip: the
// parsed pool claims the captured horse is still hidden.
TEST(FuzzRegressions, JieqiEmptyPoolSurvivesFenRoundTrip) {
  // Jieqi with every piece face up: nothing is hidden, the pool is empty.
  Position p = parse_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b", Variant::Jieqi);
  ASSERT_EQ(p.variant(), Variant::Jieqi);
  ASSERT_EQ(pool_to_string(p.pool()), "-");
  p.make(mv("b7", "b0"));  // cannon takes the (face-up) red horse
  ASSERT_EQ(pool_to_string(p.pool()), "-");
  const std::string fen = to_fen(p);
  EXPECT_EQ(fen, "rnbakabnr/9/7c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RcBAKABNR w - 0 2");
  Position back = parse_fen(fen, Variant::Jieqi);
  EXPECT_EQ(pool_to_string(back.pool()), "-");  // currently "N1"
  EXPECT_EQ(to_fen(back), fen);
}

// F2: MoveList holds 128 moves, but a legal Jieqi position can have more: face-down pieces still
// on the a0/i0/b2/h2 start squares move as rooks/cannons while their identities (here pawns) are
// elsewhere, so Red can have 4 rook-movers and 4 cannon-movers, and revealed advisors/elephants
// roam the board. This position (Red to move, 131 legal moves) makes generate_pseudo write past
// MoveList::moves into MoveList::size and then far beyond (stack corruption; UBSan: "index 19023
// out of bounds for type 'xq::Move[128]'"). Every server-side move check (has_legal_move,
// is_pseudo_legal, generate_legal) runs it. Run in a child process so the corruption cannot take
// the test binary down.
TEST(FuzzRegressions, MoveGenerationBeyond128Moves) {
  const char* fen = "3k5/7R1/2C6/3BA1P2/5RB2/3N5/3A2C2/1X5X1/5N3/X3K3X w P4 0 1";
  EXPECT_EXIT(
      {
        Position p = parse_fen(fen, Variant::Jieqi);
        MoveList legal;
        p.generate_legal(legal);
        std::exit(legal.size == 131 && p.has_legal_move() && p.is_pseudo_legal(mv("a0", "a1")) ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

// F3 (gameserver/rules/fen.cpp, parse_pool): the counts of repeated letters are added into a
// uint8_t without a cap, so the sum wraps at 256: "P5" 52 times plus "P1" (261 pawns), or 261 x
// "P", is read as 5 pawns and parse_fen accepts the FEN (the per-letter check only looks at each
// single count, the board+pool check at the wrapped sum). fuzz_fen's pool oracle reports it
// (seed tests/fuzz/corpus/fuzz_fen/jieqi_pool_261_pawns). All must throw FenError.
TEST(FuzzRegressions, JieqiPoolCountsDoNotWrapAround) {
  std::string pawns;
  for (int i = 0; i < 52; ++i) pawns += "P5";
  pawns += "P1";
  EXPECT_THROW(parse_pool(pawns), FenError);
  EXPECT_THROW(parse_pool(std::string(261, 'P')), FenError);  // letters without counts wrap the same way
  EXPECT_THROW(parse_fen("xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w R2A2C2N2B2" + pawns +
                             "r2a2c2p5n2b2 0 1",
                         Variant::Jieqi),
               FenError);
}
