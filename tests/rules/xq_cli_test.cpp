// The xq tool's output contract, checked by running the real binary.
#include <gtest/gtest.h>

#include "xq_cli_run.h"

TEST(XqCli, PerftLastLineIsTheTotal) {
  CliRun r = xq("perft --variant xiangqi --fen 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1' --depth 3");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.last_line(), "79666");
  CliRun d = xq("perft --variant xiangqi --depth 2 --divide");
  EXPECT_EQ(d.last_line(), "1920");
  EXPECT_NE(d.out.find("a0a1: 44"), std::string::npos) << d.out;
}

TEST(XqCli, JieqiPerftWithHiddenAndSeed) {
  CliRun r = xq("perft --variant jieqi --depth 2 --hidden "
             "'a0=P,b0=C,c0=R,d0=N,f0=A,g0=P,h0=B,i0=R,b2=A,h2=N,a3=C,c3=P,e3=B,g3=P,i3=P,"
             "a9=n,b9=r,c9=p,d9=b,f9=c,g9=a,h9=p,i9=c,b7=r,h7=a,a6=p,c6=b,e6=n,g6=p,i6=p'");
  EXPECT_EQ(r.last_line(), "1926");
  CliRun a = xq("perft --variant jieqi --depth 2 --seed 7"), b = xq("perft --variant jieqi --depth 2 --seed 7");
  EXPECT_EQ(a.exit_code, 0);
  EXPECT_EQ(a.last_line(), b.last_line()) << "the same seed draws the same identities";
  CliRun bad = xq("perft --variant jieqi --depth 1 --hidden 'e4=P'");
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.out.find("e4"), std::string::npos);
}

TEST(XqCli, JudgeReportsTheFirstEndingMove) {
  CliRun mate = xq("judge --variant xiangqi --fen '3k5/R8/9/9/9/9/9/9/9/1R2K4 w' --moves 'b0b9 d9d8'");
  EXPECT_EQ(mate.exit_code, 0);
  EXPECT_EQ(mate.last_line(), "red-wins checkmate");
  EXPECT_NE(mate.out.find("the 1 move(s) after it, from 'd9d8', were not played"), std::string::npos)
      << "the moves after the end are not played, and it says so (on stderr): " << mate.out;
  CliRun ongoing = xq("judge --variant xiangqi --moves 'h2e2 h9g7'");
  EXPECT_EQ(ongoing.last_line(), "ongoing");
  CliRun illegal = xq("judge --variant xiangqi --moves 'h2e2 h9h5'");
  EXPECT_NE(illegal.exit_code, 0);
  EXPECT_NE(illegal.out.find("h9h5"), std::string::npos) << illegal.out;
}

TEST(XqCli, JudgeTakesTheRepetitionOptions) {
  // A pawn (guarded by the chariot) checks on every move; the start position recurs every 4 plies.
  const std::string loop = "f8e8 e9f9 e8f8 f9e9 ";
  const std::string base = "judge --variant jieqi --fen '4k4/R4P3/9/9/9/9/9/9/9/3K5 w' --moves '" + loop + loop;
  EXPECT_EQ(xq(base + "'").last_line(), "black-wins perpetual_check");
  EXPECT_EQ(xq(base + "' --free-pawns-advisors-elephants").last_line(), "draw repetition_draw");
  EXPECT_EQ(xq(base + "' --repetitions 4").last_line(), "ongoing");
  EXPECT_EQ(xq(base + loop + "' --repetitions 4").last_line(), "black-wins perpetual_check");
  // A chariot checking on every move: 20 plies reach a 20-ply limit only when checks count.
  std::string checks = "a1a9";
  for (int i = 0; i < 5; ++i) checks += " e9e8 a9a8 e8e9 a8a9";
  const std::string limit = "judge --variant xiangqi --fen '4k4/9/9/9/9/9/9/9/R8/3K5 w' --moves '" + checks +
                            " e9e8' --move-limit 20 --repetitions 12";
  EXPECT_EQ(xq(limit).last_line(), "draw move_limit");
  EXPECT_EQ(xq(limit + " --counted-checks 0").last_line(), "ongoing");
  CliRun bad = xq(base + "' --repetitions 1");
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.out.find("--repetitions must be between 2 and 12"), std::string::npos) << bad.out;
  CliRun not_jieqi = xq(limit + " --free-pawns-advisors-elephants");
  EXPECT_NE(not_jieqi.exit_code, 0);
  EXPECT_NE(not_jieqi.out.find("Jieqi rule"), std::string::npos) << not_jieqi.out;
  CliRun negative = xq("judge --variant xiangqi --moves 'h2e2' --move-limit=-7");
  EXPECT_NE(negative.exit_code, 0);
  EXPECT_NE(negative.out.find("--move-limit"), std::string::npos) << negative.out;
}

// What the audit of 2026-12-01 found accepted in silence, now refused with a message; and notate
// shows what a face-down piece revealed.
TEST(XqCli, HiddenListsSuffixesAndVariantsAreChecked) {
  for (const char* bad : {"perft --variant jieqi --depth 1 --hidden 'a0=A,b0=A,c0=A'",  // 3 advisors
                          "perft --variant jieqi --depth 1 --hidden 'a0=P,a0=R'",       // a0 twice
                          "judge --variant jieqi --moves 'a3a4p'",                        // a Black letter for Red
                          "judge --variant jieqi --moves 'a3a4Pz'",                       // nothing captured
                          "judge --variant xiangqi --moves 'h2e2R'",                      // no reveal in Xiangqi
                          "legal --variant xiangqi --fen '3k5/9/9/9/9/9/9/3A5/9/4K3X w R1 0 1'"}) {
    CliRun r = xq(bad);
    EXPECT_NE(r.exit_code, 0) << bad << "\n" << r.out;
  }
  CliRun notate = xq("notate --variant jieqi --moves 'a3a4R a6a5p'");
  EXPECT_EQ(notate.exit_code, 0) << notate.out;
  EXPECT_NE(notate.out.find("a3a4R P9+1=r 兵九进一(翻车)"), std::string::npos) << notate.out;
  EXPECT_NE(notate.out.find("a6a5p P1+1=p 卒１进１(翻卒)"), std::string::npos) << notate.out;
}

// notate writes every move of a record, also past where the rules would have ended the game (an
// arbiter who did not rule), and the moves before an illegal one (audit of 2026-12-04).
TEST(XqCli, NotateWritesARecordPastTheRulesVerdictAndUpToAnIllegalMove) {
  const std::string fen = "rnbak1bn1/9/1c7/p1p1p2Np/5r3/9/P1P1P1P1P/1C7/9/RNBAKAB1R w";
  CliRun past = xq("notate --variant xiangqi --fen '" + fen + "' --moves 'h6g8 e9e8 g8h6 e8e9 h6g8 e9e8 g8h6 e8e9 h6g8 e9e8'");
  EXPECT_EQ(past.exit_code, 0) << past.out;
  EXPECT_NE(past.out.find("note: these rules end the game at ply 8"), std::string::npos) << past.out;
  size_t lines = 0;
  for (size_t at = past.out.find("马二进三"); at != std::string::npos; at = past.out.find("马二进三", at + 1)) ++lines;
  EXPECT_EQ(lines, 3u) << "the ninth ply is written too: " << past.out;
  CliRun cut = xq("notate --variant xiangqi --moves 'h2e2 h9g7 zz'");
  EXPECT_NE(cut.exit_code, 0);
  EXPECT_NE(cut.out.find("h9g7 H8+7 马８进７"), std::string::npos) << cut.out;
  EXPECT_NE(cut.out.find("illegal move 'zz' at ply 3: it is not in ICCS form like h2e2"), std::string::npos) << cut.out;
  EXPECT_EQ(cut.out.find("move 'zz'", cut.out.find("move 'zz'") + 1), std::string::npos) << "the move named once: " << cut.out;
}

// Past the rules' end by dead material or the move limit too (the automatic draws a record most
// often goes on past), for `notate` and `fen --moves` alike; after mate or stalemate nothing is
// legal, and the error says so. (Audit, 2026-12-04: both stopped with "the game is over".)
TEST(XqCli, ARecordGoesOnPastEveryRulesEndButMate) {
  CliRun dead = xq("notate --variant xiangqi --fen '3k5/9/9/9/9/9/9/9/4A4/4K4 w' --moves 'e1d2 d9d8'");
  EXPECT_EQ(dead.exit_code, 0) << dead.out;
  EXPECT_NE(dead.out.find("ply 0 (draw dead_material)"), std::string::npos) << dead.out;
  EXPECT_NE(dead.out.find("d9d8 K4+1"), std::string::npos) << dead.out;
  CliRun limit = xq("notate --variant xiangqi --fen '4k4/9/3R1R3/9/9/9/9/9/9/3K5 w - - 119 1' --moves 'd7d6 e9e8 d6d7'");
  EXPECT_EQ(limit.exit_code, 0) << limit.out;
  EXPECT_NE(limit.out.find("ply 1 (draw move_limit)"), std::string::npos) << limit.out;
  EXPECT_NE(limit.out.find("d6d7 R6+1"), std::string::npos) << limit.out;
  CliRun fen = xq("fen --variant xiangqi --fen '3k5/9/9/9/9/9/9/9/4A4/4K4 w' --moves 'e1d2 d9d8'");
  EXPECT_EQ(fen.exit_code, 0) << fen.out;
  EXPECT_EQ(fen.last_line(), "9/3k5/9/9/9/9/9/3A5/9/4K4 w - - 2 2");
  CliRun mate = xq("fen --variant xiangqi --fen '4k4/9/3R1R3/9/9/9/9/9/9/3K5 w' --moves 'd7e7 e9f9'");
  EXPECT_NE(mate.exit_code, 0);
  EXPECT_NE(mate.out.find("illegal move 'e9f9' at ply 2: no move is legal after checkmate"), std::string::npos) << mate.out;
}

// The record's ICCS keeps the identity of a captured face-down piece where the moves named it, so
// the record replays to the same position (jieqi-rules.md §9.2).
TEST(XqCli, NotateKeepsTheCapturedIdentityInTheRecord) {
  const std::string fen = "3k5/9/9/x8/9/9/9/9/9/X3K4 w R1p1 0 1";
  CliRun n = xq("notate --variant jieqi --fen '" + fen + "' --moves 'a0a6Rp'");
  EXPECT_EQ(n.exit_code, 0) << n.out;
  EXPECT_NE(n.out.find("a0a6Rp R9+6=r"), std::string::npos) << n.out;
  CliRun unnamed = xq("notate --variant jieqi --fen '" + fen + "' --moves 'a0a6R'");
  EXPECT_NE(unnamed.out.find("a0a6R R9+6=r"), std::string::npos) << unnamed.out;
  EXPECT_EQ(unnamed.out.find("a0a6Rp"), std::string::npos) << "no identity the moves did not give";
}

// A bad FEN's message says what is wrong, briefly: a counter out of range as such, a long field cut
// short, a Chinese character whole (not a stray byte), a pool count of too many digits.
TEST(XqCli, FenErrorsAreShortAndSayWhatIsWrong) {
  const std::string kings = "4k4/9/9/9/9/9/9/9/9/4K4 w - - ";
  CliRun negative = xq("fen --variant xiangqi --fen '" + kings + "-1 1'");
  EXPECT_NE(negative.out.find("move counter '-1' out of range"), std::string::npos) << negative.out;
  CliRun huge = xq("fen --variant xiangqi --fen '" + kings + "2147483648 1'");
  EXPECT_NE(huge.out.find("move counter '2147483648' out of range"), std::string::npos) << huge.out;
  CliRun longer = xq("fen --variant xiangqi --fen '" + kings + "0 1 " + std::string(3000, 'a') + "'");
  EXPECT_NE(longer.out.find("(3000 bytes)"), std::string::npos) << longer.out.substr(0, 300);
  EXPECT_LT(longer.out.size(), 1000u) << "the field is not echoed whole";
  CliRun chinese = xq("fen --variant xiangqi --fen '4k4/9/9/9/9/9/9/9/9/3将K4 w'");
  EXPECT_NE(chinese.out.find("bad character '将'"), std::string::npos) << chinese.out;
  CliRun pool = xq("fen --variant jieqi --fen 'xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w R0001A2C2P5N2B2r2a2c2p5n2b2 0 1'");
  EXPECT_NE(pool.out.find("more than two digits"), std::string::npos) << pool.out;
  for (const CliRun* r : {&negative, &huge, &longer, &chinese, &pool}) EXPECT_NE(r->exit_code, 0);
}

// An identity can be named once per piece of the set: a reveal or a captured piece may not take
// one already bound to another face-down piece (fixed by --hidden, or named for a capture).
TEST(XqCli, JieqiIdentitiesAreNotNamedTwice) {
  for (const char* bad : {"fen --variant jieqi --hidden 'b9=r' --moves 'b2b9A h9g7r a3a4P i9i8r'",  // b9 was the other rook
                          "fen --variant jieqi --hidden 'b9=r,a9=r' --moves 'h2h3P i9i8r'",          // both rooks are bound
                          "fen --variant jieqi --moves 'b2b9Ar a9a8r h2h3P i9i8r'",                // the captured one was a rook
                          "fen --variant jieqi --moves 'a0a1R a9a8r a1a2 i9i8r h2h9Nr'"}) {       // a third rook captured
    CliRun r = xq(bad);
    EXPECT_NE(r.exit_code, 0) << bad << "\n" << r.out;
    EXPECT_NE(r.out.find("no face-down piece of that type is left"), std::string::npos) << bad << "\n" << r.out;
  }
  for (const char* good : {"fen --variant jieqi --hidden 'b9=r' --moves 'b2b9A h9g7r a3a4P i9i8n'",
                           "fen --variant jieqi --moves 'b2b9Ar a9a8r h2h3P i9i8n'",
                           "judge --variant jieqi --moves 'b2b9Ar a9a8r'"}) {
    CliRun r = xq(good);
    EXPECT_EQ(r.exit_code, 0) << good << "\n" << r.out;
  }
}

TEST(XqCli, JudgeEndsNineRoundsOfChecksThroughACycleUnlessThreefoldOnly) {
  const std::string judge =
      "judge --variant xiangqi --fen '4k4/9/9/9/R8/9/2N6/8p/9/3K5 w' --moves 'a5a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 "
      "e8e9 a8e8 e9f9 e8e9 f9f8 e9e8 f8f7 e8e7 f7f8 e7e8 f8f9'";
  EXPECT_EQ(xq(judge).last_line(), "black-wins perpetual_check");
  EXPECT_EQ(xq(judge + " --threefold-only").last_line(), "ongoing");
  // A side that mates (or stalemates) on its next move is not going round: the rule waits, and
  // the win comes (reviews: rooks hunting a king went round once, and lost one move before mate;
  // two rooks' ninth check brought a position back one move before stalemating the king).
  EXPECT_EQ(xq("judge --variant xiangqi --fen '4k4/9/9/9/9/9/9/9/9/R2K4R w - - 0 1' --moves 'a0a9 e9e8 a9a8 e8e9 i0e0 "
               "e9f9 e0f0 f9e9 a8a9 e9e8 f0f8 e8e7 f8e8 e7f7 e8e7 f7f8 e7e8 f8f7 a9f9'")
                .last_line(),
            "red-wins checkmate");
  EXPECT_EQ(xq("judge --variant xiangqi --fen '9/4k4/9/9/9/9/9/9/9/R2K4R b - - 0 1' --moves 'e8e9 i0e0 e9f9 e0f0 f9e9 "
               "f0f9 e9e8 f9e9 e8f8 a0a8 f8f7 e9f9 f7e7 a8a7 e7e8 f9e9 e8f8 a7a8 f8f7 d0e0'")
                .last_line(),
            "red-wins stalemate");
}

TEST(XqCli, MovesInTheIccsServerFormAreRead) {
  // "H2-E2" (ICCS as the ICCS server writes it) means h2e2; commas separate moves too.
  CliRun mate = xq("judge --variant xiangqi --fen '3k5/R8/9/9/9/9/9/9/9/1R2K4 w' --moves 'B0-B9, D9-D8'");
  EXPECT_EQ(mate.last_line(), "red-wins checkmate") << mate.out;
  CliRun fen = xq("fen --variant xiangqi --moves 'H2-E2 H9-G7'");
  EXPECT_EQ(fen.last_line(), xq("fen --variant xiangqi --moves 'h2e2 h9g7'").last_line());
}

// The FEN after moves is what the moves tell (jieqi-rules.md §9.1–9.2): a captured face-down piece
// the move names ("b7b0rN") leaves the pool, so the FEN read back cannot name it again (black-box
// review, 2026-12-03: a third red horse came out of such a FEN).
TEST(XqCli, FenAfterNamedCapturesTakesThemOutOfThePool) {
  CliRun named = xq("fen --variant jieqi --moves 'h2h9Pn b7b0rN a3a4N a6a5p'");
  EXPECT_EQ(named.last_line(), "xxxxkxxPx/9/7x1/2x1x1x1x/p8/N8/2X1X1X1X/1X7/9/XrXXKXXXX w R2A2C2P4B2r1a2c2p4n1b2 2 3");
  CliRun again = xq("fen --variant jieqi --fen '" + named.last_line() + "' --moves 'c3c4N'");
  EXPECT_NE(again.exit_code, 0) << again.out;
  EXPECT_NE(again.out.find("no face-down piece of that type is left"), std::string::npos) << again.out;
  // Unnamed captures stay in the pool: their identities are still unknown.
  CliRun unnamed = xq("fen --variant jieqi --moves 'h2h9P b7b0r a3a4N a6a5p'");
  EXPECT_EQ(unnamed.last_line(), "xxxxkxxPx/9/7x1/2x1x1x1x/p8/N8/2X1X1X1X/1X7/9/XrXXKXXXX w R2A2C2P4N1B2r1a2c2p4n2b2 2 3");
}

TEST(XqCli, LegalAndFen) {
  CliRun legal = xq("legal --variant jieqi --fen '5k3/9/9/9/9/9/9/9/9/3XK4 w A1 0 1'");
  EXPECT_EQ(legal.out, "d0e1\ne0e1\n");
  CliRun fen = xq("fen --variant xiangqi --fen 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w' --moves 'h2e2'");
  EXPECT_EQ(fen.last_line(), "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
  CliRun bad = xq("fen --variant xiangqi --fen 'rnbakabnr/9/9 w'");
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.out.find("bad FEN"), std::string::npos);
  CliRun flag = xq("perft --variant shogi --depth 1");
  EXPECT_NE(flag.exit_code, 0);
  EXPECT_NE(flag.out.find("shogi"), std::string::npos);
}

// Another command's option, or a word that is no option, is an error: a script passing --moves to
// legal or perft believed the moves were played (CLI review, 2026-12-05: all ignored, exit 0).
TEST(XqCli, AnotherCommandsOptionOrAStrayWordIsRefused) {
  for (const std::string& args : {std::string("legal --variant xiangqi --moves h2e2"), std::string("perft --variant xiangqi --depth 1 --moves zz99"),
                                  std::string("perft --variant xiangqi --depth 1 --rules axf"), std::string("judge --variant xiangqi --depth 3"),
                                  std::string("fen --variant xiangqi --divide"), std::string("bestmove --variant xiangqi --moves h2e2")}) {
    CliRun r = xq(args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.out;
    EXPECT_NE(r.out.find("is not an option of"), std::string::npos) << args << "\n" << r.out;
  }
  CliRun stray = xq("perft --variant xiangqi --depth 1 extra");
  EXPECT_EQ(stray.exit_code, 2) << stray.out;
  EXPECT_NE(stray.out.find("'extra' is not an option"), std::string::npos) << stray.out;
  // Defaults are not "given": the commands still run with what they take.
  EXPECT_EQ(xq("perft --variant xiangqi --depth 1 --seed 3").last_line(), "44");
  EXPECT_EQ(xq("judge --variant xiangqi --rules axf --moves 'h2e2 h9g7'").last_line(), "ongoing");
}
