#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "rules/fen.h"
#include "rules/game.h"
#include "rules/jieqi.h"
#include "rules/perft.h"
#include "rules/view.h"

using namespace xq;

namespace {

std::set<std::string> legal_set(const std::string& fen) {
  Position p = parse_fen(fen, Variant::Jieqi);
  MoveList list;
  p.generate_legal(list);
  std::set<std::string> out;
  for (const Move& m : list) out.insert(to_iccs(m));
  return out;
}

// jieqi-rules.md §11.4
const char* const kFixedAssignment =
    "a0=P,b0=C,c0=R,d0=N,f0=A,g0=P,h0=B,i0=R,b2=A,h2=N,a3=C,c3=P,e3=B,g3=P,i3=P,"
    "a9=n,b9=r,c9=p,d9=b,f9=c,g9=a,h9=p,i9=c,b7=r,h7=a,a6=p,c6=b,e6=n,g6=p,i6=p";

}  // namespace

// Positions built by an outside audit (2026-12-02), one rule of jieqi-rules.md §§2–4 each, with the
// number of legal moves counted by hand (and by an independent generator written from the spec).
TEST(JieqiMoves, AuditedRulePositions) {
  struct Case {
    const char* fen;
    size_t moves;
    const char* what;
  };
  const Case cases[] = {
      {"3k5/9/9/9/9/9/9/9/9/X3K4 w P1 0 1", 14,
       "Red's face-down chariot on a0 moves as a chariot whatever the pool says; e0d0 would face the other general"},
      {"4k3x/9/9/9/9/8P/9/9/9/3K5 b r1 0 1", 10,
       "Black's face-down chariot on i9 slides and takes on i4"},
      {"5k3/9/9/9/9/9/9/9/9/1XX1K4 w N1B1 0 1", 6,
       "face-down horse on b0 with its leg c0 blocked by a face-down piece; face-down elephant on c0"},
      {"4k2x1/5A1p1/9/9/9/9/9/9/9/3K5 b n1 0 1", 3,
       "a revealed advisor on f8 gives check; the face-down horse on h9 (leg h8 blocked) takes it"},
      {"3k5/9/9/9/9/9/9/9/5A3/4K1X2 w B1 0 1", 5,
       "face-down elephant on g0 with its eye f1 blocked"},
      {"4k1x2/5P3/9/9/9/9/9/9/9/5K3 b b1 0 1", 2,
       "Black's face-down elephant, its eye blocked by an enemy pawn"},
      {"3k5/9/9/9/9/9/9/9/4p4/3XKX3 w A2 0 1", 3,
       "in check from a pawn on e1: both face-down advisors may take it"},
      {"3xkx3/R8/9/9/9/9/9/9/9/5K3 b a2 0 1", 2,
       "face-down advisors move only to the palace centre"},
      {"1x3k3/9/1x7/9/9/9/9/1X5X1/9/4K4 w C2c1n1 0 1", 30,
       "face-down cannons; a face-down piece as screen and as target"},
      {"4k2x1/9/7x1/9/9/9/9/7X1/9/3K3X1 b C1N1c1n1 0 1", 19,
       "Black's face-down cannon takes on h0 over h2; face-down horse on h9"},
      {"4k4/9/9/9/9/P1p6/X1X1X4/9/9/3K5 w P2N1 0 1", 5,
       "face-down pawns, blocked and capturing forward; e3 blocks the generals' file"},
      {"5k3/9/9/4x1x1x/4n3R/9/9/9/9/3K5 b p3 0 1", 9,
       "Black's face-down pawns; horse legs blocked by own pieces"},
      {"3k5/7p1/6B2/9/3A5/9/9/9/9/5K3 w - 0 1", 9,
       "revealed advisor and elephant across the river"},
      {"4k4/9/9/9/1P7/2b6/9/4a4/9/3K5 b - 0 1", 8,
       "Black's advisor in Red's palace, elephant on Red's half"},
      {"2p2k3/9/9/9/8p/p8/9/9/9/4K1p2 b - 0 1", 7,
       "Black's pawns by the square they stand on"},
      {"2P2k3/9/4P4/9/9/8P/9/9/1P7/3K5 w - 0 1", 9,
       "Red's pawns by the square they stand on"},
      {"9/9/5k3/9/9/9/9/3K5/9/3X5 w A1 0 1", 3,
       "Red's general in a palace corner"},
      {"9/9/5k3/9/9/9/9/3K5/9/3X5 b A1 0 1", 2,
       "Black's general in a palace corner"},
      {"4k4/9/9/9/9/9/2X1X4/9/9/4K4 w P2 0 1", 5,
       "a face-down piece is the only one between the generals"},
      {"3xkx3/9/9/9/4a4/9/9/9/9/4K4 b a1p1 0 1", 3,
       "a revealed advisor on e5 pinned by the facing generals"},
      {"3k5/9/4c4/9/9/9/4X4/9/9/2XXK4 w P1A1B1 0 1", 3,
       "a cannon's check over a face-down screen; face-down pieces step in between"},
      {"4kx1x1/9/5N3/9/9/9/9/9/9/3K5 b n1a1 0 1", 2,
       "a horse's check; the face-down horse blocks its leg"},
      {"x2k5/9/5N3/8x/9/9/9/9/9/X4K3 w R1r1p1 0 1", 23,
       "before a possible mate: the face-down chariot may take the face-down a9"},
      {"R2xkx2R/9/6N2/9/9/9/9/9/9/3K5 b a2 0 1", 0,
       "Black has no move: face-down advisors pinned, e8 covered"},
      {"5k3/9/9/9/9/9/9/6n2/9/r2XKX2r w A2 0 1", 0,
       "Red has no move: the same, Red's side"},
      {"5k3/9/9/2x1x1x2/4R4/9/9/9/9/3K5 w p3 0 1", 16,
       "a revealed chariot takes face-down pieces"},
  };
  for (const Case& c : cases) EXPECT_EQ(legal_set(c.fen).size(), c.moves) << c.fen << ": " << c.what;
}

TEST(JieqiPerft, StartPositionHas44Moves) {
  Position p = parse_fen(kJieqiStartFen, Variant::Jieqi);
  EXPECT_EQ(perft(p, 1), 44u);
}

TEST(JieqiPerft, FixedAssignmentDepths1To3) {
  Position p = parse_fen(kJieqiStartFen, Variant::Jieqi);
  apply_hidden_list(p, kFixedAssignment);
  ASSERT_TRUE(p.identities_known());
  EXPECT_EQ(perft(p, 1), 44u);
  EXPECT_EQ(perft(p, 2), 1926u);
  EXPECT_EQ(perft(p, 3), 73579u);
  EXPECT_EQ(to_fen(p), kJieqiStartFen) << "make/unmake must restore the position";
}

TEST(JieqiPerft, BrightJieqiAllRevealed) {
  Position p = parse_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - 0 1", Variant::Jieqi);
  const uint64_t expected[] = {46, 2098, 91350, 3958056};
  for (int d = 1; d <= 4; ++d) EXPECT_EQ(perft(p, d), expected[d - 1]) << "depth " << d;
}

struct UnitCase {
  const char* fen;
  std::set<std::string> moves;
};

class JieqiUnitPositions : public ::testing::TestWithParam<UnitCase> {};

TEST_P(JieqiUnitPositions, LegalMovesMatchTheSpec) { EXPECT_EQ(legal_set(GetParam().fen), GetParam().moves); }

INSTANTIATE_TEST_SUITE_P(
    Spec11_2, JieqiUnitPositions,
    ::testing::Values(UnitCase{"5k3/9/9/9/9/9/9/9/9/3XK4 w A1 0 1", {"e0e1", "d0e1"}},
                      UnitCase{"5k3/9/9/9/9/9/9/9/9/3AK4 w - 0 1", {"d0c1", "d0e1", "e0e1"}},
                      UnitCase{"4k4/9/9/9/4B4/9/9/9/9/3K5 w - 0 1", {"e5c3", "e5g3", "e5c7", "e5g7", "d0e0", "d0d1"}},
                      UnitCase{"4k4/9/9/9/9/9/9/9/9/1B1K5 w - 0 1", {"b0d2", "d0d1"}},
                      UnitCase{"4k4/9/9/9/9/9/9/9/9/P2K5 w - 0 1", {"a0a1", "d0d1"}},
                      UnitCase{"4k4/9/9/9/4P4/9/9/9/9/3K5 w - 0 1", {"e5d5", "e5f5", "e5e6", "d0e0", "d0d1"}},
                      UnitCase{"P3k4/9/9/9/9/9/9/9/9/3K5 w - 0 1", {"a9b9", "d0d1"}},
                      UnitCase{"3k5/9/9/9/9/9/9/9/9/r2XK4 w A1 0 1", {"e0e1", "e0f0"}},
                      UnitCase{"4k4/9/9/9/9/4r4/9/9/9/3XKX3 w A2 0 1", {"d0e1", "f0e1"}}));

TEST(JieqiCommitment, VerifiesAndRejectsTampering) {
  Assignment a = draw_assignment();
  std::string salt = random_hex(16);
  std::string c = commitment(a, salt);
  EXPECT_EQ(c.size(), 64u);
  EXPECT_TRUE(verify_commitment(c, a.to_string(), salt));
  // Swap two different identities of Red: a changed assignment must not verify.
  std::string tampered = a.to_string();
  for (size_t i = 1; i < 15; ++i)
    if (tampered[i] != tampered[0]) {
      std::swap(tampered[0], tampered[i]);
      break;
    }
  EXPECT_FALSE(verify_commitment(c, tampered, salt));
  EXPECT_FALSE(verify_commitment(c, a.to_string(), salt + "00"));
  EXPECT_FALSE(verify_commitment(c, "not an assignment", salt));
}

TEST(JieqiCommitment, DrawnAssignmentsAreValidAndVary) {
  std::set<std::string> seen;
  for (int i = 0; i < 50; ++i) {
    Assignment a = draw_assignment();
    EXPECT_NO_THROW(Assignment::from_string(a.to_string()));
    seen.insert(a.to_string());
  }
  EXPECT_GT(seen.size(), 45u);
}

TEST(JieqiCommitment, AssignmentRoundTripsThroughPosition) {
  Assignment a = draw_assignment();
  Position p = Position::jieqi_start();
  apply_assignment(p, a);
  for (Color c : {Color::Red, Color::Black})
    for (int i = 0; i < 15; ++i) EXPECT_EQ(p.identity(dark_squares(c)[i]), a.types[index(c) * 15 + i]);
}

namespace {

// Red's a3 pawn-square piece (a cannon) takes on a6's file after the a-file pieces move out.
RulesGame capture_game(CaptureVisibility v) {
  GameRules rules = GameRules::defaults(Variant::Jieqi);
  rules.capture_visibility = v;
  Position p = parse_fen(kJieqiStartFen, Variant::Jieqi);
  apply_hidden_list(p, kFixedAssignment);
  RulesGame g(rules, p);
  // b2 (dark cannon square, really an advisor) captures b9 (dark, really a black rook) via b7?
  // Use a simpler capture: Red's dark cannon on h2 (really a horse) jumps over h7 to h9.
  EXPECT_EQ(g.play("h2h9"), RulesGame::MoveError::None);
  return g;
}

}  // namespace

TEST(JieqiViews, CapturerOnlyVisibility) {
  RulesGame g = capture_game(CaptureVisibility::Capturer);
  ASSERT_EQ(g.moves().size(), 1u);
  EXPECT_EQ(view_of_move(g, 0, Viewer::Red).iccs, "h2h9Np");  // revealed horse, captured pawn identity
  EXPECT_EQ(view_of_move(g, 0, Viewer::Black).iccs, "h2h9N");
  EXPECT_EQ(view_of_move(g, 0, Viewer::Spectator).iccs, "h2h9N");
  EXPECT_EQ(view_of(g, Viewer::Red).captured.at(0).type, Pawn);
  EXPECT_EQ(view_of(g, Viewer::Black).captured.at(0).type, NoType);
  EXPECT_EQ(view_of(g, Viewer::Spectator).captured.at(0).type, NoType);
  // The capturer's pool no longer counts the captured pawn; the owner's still does.
  EXPECT_NE(view_of(g, Viewer::Red).fen, view_of(g, Viewer::Black).fen);
  EXPECT_EQ(view_of(g, Viewer::Black).fen, view_of(g, Viewer::Spectator).fen);
}

TEST(JieqiViews, NobodyVisibility) {
  RulesGame g = capture_game(CaptureVisibility::Nobody);
  for (Viewer v : {Viewer::Red, Viewer::Black, Viewer::Spectator}) {
    EXPECT_EQ(view_of_move(g, 0, v).iccs, "h2h9N");
    EXPECT_EQ(view_of(g, v).captured.at(0).type, NoType);
  }
}

TEST(JieqiViews, BothVisibility) {
  RulesGame g = capture_game(CaptureVisibility::Both);
  EXPECT_EQ(view_of_move(g, 0, Viewer::Red).iccs, "h2h9Np");
  EXPECT_EQ(view_of_move(g, 0, Viewer::Black).iccs, "h2h9Np");
  EXPECT_EQ(view_of_move(g, 0, Viewer::Spectator).iccs, "h2h9N");  // spectators wait for the end
}

TEST(JieqiViews, EverythingPublicAtTheEnd) {
  RulesGame g = capture_game(CaptureVisibility::Nobody);
  g.finish(Result::win(Color::Red, "resignation"));
  for (Viewer v : {Viewer::Red, Viewer::Black, Viewer::Spectator}) EXPECT_EQ(view_of_move(g, 0, v).iccs, "h2h9Np");
}

TEST(JieqiViews, NoViewLeaksFaceDownIdentities) {
  Position p = parse_fen(kJieqiStartFen, Variant::Jieqi);
  apply_assignment(p, draw_assignment());
  RulesGame g(GameRules::defaults(Variant::Jieqi), p);
  for (Viewer v : {Viewer::Red, Viewer::Black, Viewer::Spectator}) EXPECT_EQ(view_of(g, v).fen, kJieqiStartFen);
}

TEST(JieqiGame, RevealDecidedByServerNotClient) {
  Position p = parse_fen(kJieqiStartFen, Variant::Jieqi);
  apply_hidden_list(p, kFixedAssignment);
  RulesGame g(GameRules::defaults(Variant::Jieqi), p);
  ASSERT_EQ(g.play("a3a4R"), RulesGame::MoveError::None);  // a3 is really a cannon
  EXPECT_EQ(type_of(g.position().at(parse_square("a4"))), Cannon);
  EXPECT_FALSE(is_dark(g.position().at(parse_square("a4"))));
}

TEST(JieqiGame, UnknownIdentityNeedsSuffixFromPool) {
  RulesGame g(GameRules::defaults(Variant::Jieqi), parse_fen(kJieqiStartFen, Variant::Jieqi));
  EXPECT_EQ(g.play("a3a4"), RulesGame::MoveError::BadFormat);
  EXPECT_EQ(g.play("a3a4K"), RulesGame::MoveError::BadFormat);
  EXPECT_EQ(g.play("a3a4P"), RulesGame::MoveError::None);
  EXPECT_EQ(type_of(g.position().at(parse_square("a4"))), Pawn);
}

// Suffixes are read, not skipped: the reveal letter's case is the mover's colour, a second letter
// names a captured face-down piece (where its identity is known, the secret decides and the letter
// is ignored), nothing follows; a revealed or Xiangqi piece's move takes no reveal letter.
TEST(JieqiGame, MoveSuffixesAreChecked) {
  using E = RulesGame::MoveError;
  RulesGame g(GameRules::defaults(Variant::Jieqi), parse_fen(kJieqiStartFen, Variant::Jieqi));
  EXPECT_EQ(g.play("a3a4p"), E::BadFormat) << "a Black letter for a Red piece";
  EXPECT_EQ(g.play("a3a4Pz"), E::BadFormat) << "a letter with no captured face-down piece";
  EXPECT_EQ(g.play("a3a4PP"), E::BadFormat);
  EXPECT_EQ(g.play("a3a4P"), E::None);
  EXPECT_EQ(g.play("a6a5P"), E::BadFormat) << "a Red letter for a Black piece";
  EXPECT_EQ(g.play("a6a5p"), E::None);

  Position p = parse_fen(kJieqiStartFen, Variant::Jieqi);
  apply_hidden_list(p, kFixedAssignment);
  RulesGame fixed(GameRules::defaults(Variant::Jieqi), p);
  const std::string target_letter(1, static_cast<char>(std::tolower(piece_letter(p.identity(parse_square("b9"))))));
  const std::string wrong = target_letter == "r" ? "n" : "r";
  const std::string reveal(1, piece_letter(p.identity(parse_square("b2"))));
  EXPECT_EQ(fixed.play("b2b9" + reveal + target_letter + "x"), E::BadFormat);
  RulesGame named_wrong = fixed;
  EXPECT_EQ(named_wrong.play("b2b9" + reveal + wrong), E::None) << "a wrong letter is ignored, not refused";
  EXPECT_EQ(named_wrong.moves().back().captured_identity, p.identity(parse_square("b9"))) << "the secret decides";
  EXPECT_EQ(fixed.play("b2b9" + reveal + target_letter), E::None);

  RulesGame xiangqi(GameRules::defaults(Variant::Xiangqi), Position::xiangqi_start());
  EXPECT_EQ(xiangqi.play("h2e2R"), E::BadFormat) << "Xiangqi moves carry no identity";
  EXPECT_EQ(xiangqi.play("h2e2"), E::None);
}

// A player must not learn a face-down identity by naming it: with every identity known (as on the
// server), a move naming any letter for any face-down piece gets the same answer, whichever letter
// is right. (The server once answered "the captured piece is not a N" for wrong letters before the
// move was even legal, from an empty square: all 30 identities in ~90 refused requests.)
TEST(JieqiGame, NamingAFaceDownPieceRevealsNothing) {
  Position p = parse_fen(kJieqiStartFen, Variant::Jieqi);
  apply_hidden_list(p, kFixedAssignment);
  const RulesGame game(GameRules::defaults(Variant::Jieqi), p);
  for (Square s = 0; s < kSquares; ++s) {
    const Piece target = p.at(s);
    if (!target || !is_dark(target)) continue;
    // From empty squares the letter names the target (the path that leaked); from a face-down
    // piece (a0) it is read as that piece's reveal letter, which must not leak either.
    for (const char* from : {"e5", "e4", "a0"}) {
      std::set<std::pair<int, std::string>> answers;
      for (char l : std::string("RNBACP")) {
        const char named = color_of(target) == Color::Red ? l : static_cast<char>(std::tolower(l));
        RulesGame g = game;
        std::string message;
        const auto e = g.play(std::string(from) + square_name(s) + named, &message);
        message.erase(0, message.find(':'));  // the answer without the echoed move
        answers.insert({static_cast<int>(e), message});
      }
      EXPECT_EQ(answers.size(), 1u) << from << square_name(s) << ": " << answers.begin()->second << " / "
                                    << answers.rbegin()->second;
    }
  }
}

// Every viewer's FEN is the position's own in Xiangqi (nothing is hidden); in Jieqi a captured
// face-down piece leaves the pool only for those who may know it.
TEST(Views, XiangqiViewFenIsThePositionForEveryViewer) {
  RulesGame g(GameRules::defaults(Variant::Xiangqi), Position::xiangqi_start());
  for (const char* m : {"h2e2", "h9g7", "e2e6", "a9a8"}) ASSERT_EQ(g.play(m), RulesGame::MoveError::None) << m;
  for (Viewer v : {Viewer::Red, Viewer::Black, Viewer::Spectator}) EXPECT_EQ(view_fen(g, v), to_fen(g.position()));
}
