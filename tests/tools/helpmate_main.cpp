// helpmate: prints a shortest cooperative checkmate line for a position whose hidden Jieqi
// identities are all known (for the browser tests; see tests/tools/helpmate.h).
//
//   helpmate --assignment 30LETTERS [--fen FEN] [--moves "m1 m2"] [--max-plies N] [--max-nodes N]
//            [--max-ms N] [--mater red|black|any] [--sample N --seed S]
//
// Output, stdout: the ICCS moves on one line (plain from-to, no reveal letters), or "none".
// stderr: plies, nodes and milliseconds. Exit 0 when a mate was found, 1 when not, 2 on bad usage.
// --sample N ignores --assignment and searches N random assignments (seeded), one line each: the
// statistics that decide how a test uses the tool.
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <random>
#include <sstream>
#include <string>

#include "helpmate.h"
#include "rules/fen.h"
#include "rules/game.h"
#include "rules/jieqi.h"

using namespace xq;

namespace {

int usage(const std::string& why) {
  if (!why.empty()) std::cerr << "helpmate: " << why << "\n";
  (why.empty() ? std::cout : std::cerr)
            << "usage: helpmate --assignment 30LETTERS [--fen FEN] [--moves \"m1 m2\"] [--max-plies N] [--max-nodes N]\n"
            << "                [--max-ms N] [--mater red|black|any] [--sample N --seed S]\n";
  return why.empty() ? 0 : 2;
}

std::string line_of(const std::vector<Move>& moves) {
  std::string out;
  for (const Move& m : moves) out += (out.empty() ? "" : " ") + to_iccs(Move{m.from, m.to, NoType});
  return out;
}

// Replays the line in a real game (every end-of-game rule) and returns its result reason.
std::string replay_reason(const Position& start, const std::vector<std::string>& before, const std::vector<Move>& line) {
  RulesGame g(GameRules::defaults(start.variant()), start);
  for (const auto& m : before)
    if (g.play(m) != RulesGame::MoveError::None) return "bad-prefix";
  for (const Move& m : line)
    if (g.play(m) != RulesGame::MoveError::None) return "illegal";
  return g.result().over() ? g.result().reason : "ongoing";
}

}  // namespace

int main(int argc, char** argv) {
  std::string fen = kJieqiStartFen, assignment, moves_text;
  tools::HelpmateOptions opt;
  int sample = 0;
  uint64_t seed = 1;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
      return argv[++i];
    };
    try {
      if (a == "--help" || a == "-h") return usage("");
      else if (a == "--fen") fen = next();
      else if (a == "--assignment") assignment = next();
      else if (a == "--moves") moves_text = next();
      else if (a == "--max-plies") opt.max_plies = std::stoi(next());
      else if (a == "--max-nodes") opt.max_nodes = std::stoull(next());
      else if (a == "--max-ms") opt.max_ms = std::stoll(next());
      else if (a == "--sample") sample = std::stoi(next());
      else if (a == "--seed") seed = std::stoull(next());
      else if (a == "--mater") {
        std::string m = next();
        opt.mater = m == "red" ? 0 : m == "black" ? 1 : m == "any" ? -1 : -2;
        if (opt.mater == -2) return usage("--mater takes red, black or any");
      } else return usage("unknown option " + a);
    } catch (const std::exception& e) {
      return usage(e.what());
    }
  }
  std::vector<std::string> before;
  {
    std::istringstream in(moves_text);
    for (std::string m; in >> m;) before.push_back(m);
  }

  auto prepare = [&](const Assignment& asg) {
    Position p = parse_fen(fen, Variant::Jieqi);
    apply_assignment(p, asg);
    RulesGame g(GameRules::defaults(p.variant()), p);
    for (const auto& m : before) {
      std::string why;
      if (g.play(m, &why) != RulesGame::MoveError::None) throw std::invalid_argument(why);
    }
    return std::make_pair(p, g.position());
  };

  try {
    if (sample > 0) {
      std::mt19937_64 rng(seed);
      const std::string red = "RRNNBBAACCPPPPP";
      int found = 0;
      int64_t total_ms = 0;
      for (int n = 0; n < sample; ++n) {
        std::string r = red, b = red;
        std::shuffle(r.begin(), r.end(), rng);
        std::shuffle(b.begin(), b.end(), rng);
        for (char& c : b) c = static_cast<char>(std::tolower(c));
        Assignment asg = Assignment::from_string(r + b);
        auto [start, pos] = prepare(asg);
        tools::HelpmateResult res = tools::find_helpmate(pos, opt);
        found += res.found;
        total_ms += res.ms;
        std::cout << asg.to_string() << " " << (res.found ? std::to_string(res.moves.size()) : "-") << " plies, "
                  << res.nodes << " nodes, " << res.ms << " ms"
                  << (res.found ? ", " + replay_reason(start, before, res.moves) + ": " + line_of(res.moves) : "") << std::endl;
      }
      std::cout << "found " << found << "/" << sample << ", mean " << (total_ms / sample) << " ms" << std::endl;
      return 0;
    }
    if (assignment.empty()) return usage("--assignment is required");
    auto [start, pos] = prepare(Assignment::from_string(assignment));
    tools::HelpmateResult res = tools::find_helpmate(pos, opt);
    std::cerr << (res.found ? std::to_string(res.moves.size()) + " plies" : "no mate") << ", searched "
              << res.searched_plies << " plies completely, " << res.nodes << " nodes, " << res.ms << " ms\n";
    if (!res.found) {
      std::cout << "none\n";
      return 1;
    }
    std::string reason = replay_reason(start, before, res.moves);
    if (reason != "checkmate") {
      std::cerr << "helpmate: internal error, the line ends in " << reason << "\n";
      return 3;
    }
    std::cout << line_of(res.moves) << "\n";
    return 0;
  } catch (const std::exception& e) {
    return usage(e.what());
  }
}
