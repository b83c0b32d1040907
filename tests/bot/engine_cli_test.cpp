// `xq bestmove`: the engine from the command line; its last line is the move alone.
#include <gtest/gtest.h>

#include "../rules/xq_cli_run.h"

TEST(EngineCli, BestmoveFindsTheMate) {
  CliRun r = xq("bestmove --variant xiangqi --fen '4k4/R8/1R7/9/9/9/9/9/9/3K5 w - - 0 1' --depth 3");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(r.last_line(), "b7b9") << r.out;
}

TEST(EngineCli, BestmoveJieqiViewWithNodeLimit) {
  CliRun r = xq("bestmove --variant jieqi --movetime-ms 0 --nodes 5000 --seed 3");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(r.last_line().size(), 4u) << r.out;
  CliRun again = xq("bestmove --variant jieqi --movetime-ms 0 --nodes 5000 --seed 3");
  EXPECT_EQ(again.out, r.out);
}

TEST(EngineCli, BestmoveNoMoveAndErrors) {
  CliRun mated = xq("bestmove --fen '5k3/9/9/9/9/9/9/9/r8/r2K5 w - - 0 1' --depth 2");
  EXPECT_EQ(mated.exit_code, 0) << mated.out;
  EXPECT_EQ(mated.last_line(), "none");
  EXPECT_EQ(xq("bestmove --fen 'nonsense' --depth 2").exit_code, 2);
  EXPECT_EQ(xq("bestmove --movetime-ms 0").exit_code, 2);  // no limit at all
}
