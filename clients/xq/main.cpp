// xq: the command line face of the rules library (perft, judge, legal, fen, notate) and of the
// computer opponent's engine (bestmove).
// Scripts depend on the output contract: perft's last line is the total alone; judge's last line is
// "ongoing", "red-wins REASON", "black-wins REASON" or "draw REASON"; bestmove's last line is the
// move alone ("none" when the side to move has no legal move).
#include <cctype>
#include <functional>
#include <boost/program_options.hpp>
#include <set>
#include <iostream>
#include <sstream>
#include <optional>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "rules/fen.h"
#include "rules/game.h"
#include "rules/jieqi.h"
#include "rules/notation.h"
#include "rules/perft.h"
#include "rules/view.h"

// The library's reason may name the move itself ("move 'e2e9': …"): the error line names it already.
static std::string without_move(const std::string& why, const std::string& mv) {
  const std::string named = "move '" + mv + "'";
  if (why.rfind(named + ": ", 0) == 0) return why.substr(named.size() + 2);
  if (why.rfind(named + " ", 0) == 0) return "it " + why.substr(named.size() + 1);
  return why;
}

namespace po = boost::program_options;
using namespace xq;

namespace {

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

const char* const kUsage =
    "usage: xq COMMAND [options]\n"
    "commands:\n"
    "  perft   --variant xiangqi|jieqi [--fen FEN] --depth N [--hidden a0=P,b0=C,...] [--seed S] [--divide]\n"
    "  judge   --variant xiangqi|jieqi [--rules cxa|axf|computer] [--fen FEN] --moves \"m1 m2 ...\" [--labels]\n"
    "          [--move-limit PLIES] [--counted-checks N] [--repetitions N] [--free-pawns-advisors-elephants]\n"
    "          [--threefold-only] [--hidden a0=P,...]\n"
    "  legal   --variant xiangqi|jieqi [--fen FEN]\n"
    "  fen     --variant xiangqi|jieqi [--fen FEN] [--moves \"m1 m2 ...\"]   validate/normalise, optionally after moves\n"
    "  notate  --variant xiangqi|jieqi [--fen FEN] --moves \"m1 m2 ...\"       ICCS, WXF and Chinese for each move\n"
    "  bestmove --variant xiangqi|jieqi [--fen FEN] [--movetime-ms N] [--depth N] [--nodes N] [--seed S]\n"
    "          the engine's move for the side to move (Jieqi: FEN as that side sees it)\n"
    "Without --fen the variant's start position is used. Moves are ICCS (h2e2; H2-E2 is read too),\n"
    "separated by spaces or commas. Jieqi moves of face-down pieces take the revealed identity as a\n"
    "suffix (a3a4P) unless --hidden fixes identities.\n";

Variant parse_variant(const std::string& v) {
  if (v == "xiangqi") return Variant::Xiangqi;
  if (v == "jieqi") return Variant::Jieqi;
  throw UsageError("unknown --variant '" + v + "' (expected xiangqi or jieqi)");
}

// ICCS as the ICCS server wrote it ("H2-E2") is read as the UCCI form "h2e2" (a Jieqi identity
// suffix keeps its case: it names the colour).
std::string normalise_move(std::string m) {
  auto file = [](char c) { return (c >= 'a' && c <= 'i') || (c >= 'A' && c <= 'I'); };
  auto rank = [](char c) { return c >= '0' && c <= '9'; };
  if (m.size() >= 5 && m[2] == '-' && file(m[0]) && rank(m[1]) && file(m[3]) && rank(m[4])) m.erase(2, 1);
  if (m.size() >= 4 && file(m[0]) && rank(m[1]) && file(m[2]) && rank(m[3])) {
    m[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(m[0])));
    m[2] = static_cast<char>(std::tolower(static_cast<unsigned char>(m[2])));
  }
  return m;
}

std::vector<std::string> split_moves(const std::string& s) {
  std::vector<std::string> out;
  std::string m;
  for (char c : s) {
    if (c == ' ' || c == ',' || c == '\t' || c == '\n' || c == '\r') {
      if (!m.empty()) out.push_back(normalise_move(m)), m.clear();
    } else {
      m += c;
    }
  }
  if (!m.empty()) out.push_back(normalise_move(m));
  return out;
}

struct Common {
  Variant variant;
  Position pos;
};

Common load(const po::variables_map& vm) {
  Common c;
  c.variant = parse_variant(vm["variant"].as<std::string>());
  std::string fen = vm.count("fen") ? vm["fen"].as<std::string>()
                                    : (c.variant == Variant::Jieqi ? kJieqiStartFen : kXiangqiStartFen);
  c.pos = parse_fen(fen, c.variant);
  if (vm.count("hidden")) {
    try {
      apply_hidden_list(c.pos, vm["hidden"].as<std::string>());
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("--hidden: ") + e.what());
    }
  }
  return c;
}

char reveal_letter(Color c, PieceType t) {
  char l = piece_letter(t);
  return c == Color::Red ? l : static_cast<char>(l + 32);
}

int cmd_perft(const po::variables_map& vm) {
  Common c = load(vm);
  if (!vm.count("depth")) throw UsageError("perft needs --depth N");
  int depth = vm["depth"].as<int>();
  if (depth < 0 || depth > 12) throw UsageError("--depth must be between 0 and 12");
  if (!c.pos.identities_known()) assign_from_pool(c.pos, vm["seed"].as<uint64_t>());
  if (vm.count("divide") && depth >= 1) {
    uint64_t total = 0;
    for (auto& [m, n] : perft_divide(c.pos, depth)) {
      std::string name = to_iccs(m);
      if (m.reveal != NoType) name += reveal_letter(c.pos.side_to_move(), m.reveal);
      std::cout << name << ": " << n << "\n";
      total += n;
    }
    std::cout << total << "\n";
  } else {
    std::cout << perft(c.pos, depth) << "\n";
  }
  return 0;
}

int cmd_legal(const po::variables_map& vm) {
  Common c = load(vm);
  MoveList list;
  c.pos.generate_legal(list);
  for (const Move& m : list) std::cout << to_iccs(m) << "\n";
  return 0;
}

// Plays --moves on a RulesGame; prints an error naming the move and returns false if one fails.
bool play_moves(RulesGame& game, const po::variables_map& vm, bool stop_at_end) {
  if (!vm.count("moves")) return true;
  const std::vector<std::string> moves = split_moves(vm["moves"].as<std::string>());
  for (size_t i = 0; i < moves.size(); ++i) {
    const std::string& mv = moves[i];
    if (stop_at_end && game.result().over()) {  // said on stderr: the last stdout line stays the verdict
      std::cerr << "note: the game ended at ply " << game.moves().size() << "; the " << moves.size() - i
                << " move(s) after it, from '" << mv << "', were not played\n";
      break;
    }
    std::string why;
    if (game.play(mv, &why) != RulesGame::MoveError::None) {
      std::cerr << "error: illegal move '" << mv << "' at ply " << game.moves().size() + 1 << ": " << without_move(why, mv) << "\n";
      return false;
    }
  }
  return true;
}

GameRules rules_from(const po::variables_map& vm, Variant v) {
  GameRules r = GameRules::defaults(v);
  std::string name = vm["rules"].as<std::string>();
  auto rs = parse_ruleset(name);
  if (!rs) throw UsageError("unknown --rules '" + name + "' (expected cxa, axf or computer)");
  r.ruleset = *rs;
  if (vm.count("move-limit")) {
    r.move_limit_plies = vm["move-limit"].as<int>();
    if (r.move_limit_plies < 0) throw UsageError("--move-limit must be 0 (off) or a number of plies");
  }
  if (vm.count("repetitions")) {
    int n = vm["repetitions"].as<int>();
    if (n < GameRules::kMinRepetitions || n > GameRules::kMaxRepetitions)
      throw UsageError("--repetitions must be between " + std::to_string(GameRules::kMinRepetitions) + " and " +
                       std::to_string(GameRules::kMaxRepetitions));
    r.repetition_occurrences = n;
  }
  r.adjudication.pawns_advisors_elephants_free = vm.count("free-pawns-advisors-elephants") > 0;
  if (r.adjudication.pawns_advisors_elephants_free && v != Variant::Jieqi)
    throw UsageError("--free-pawns-advisors-elephants is a Jieqi rule (jieqi-rules.md §6)");
  r.adjudication.cxa_nine_round_cycles = vm.count("threefold-only") == 0;
  if (vm.count("counted-checks")) {
    r.counted_checks_per_side = vm["counted-checks"].as<int>();
    if (r.counted_checks_per_side < -1) throw UsageError("--counted-checks must be -1 (all) or more");
  }
  return r;
}

int cmd_judge(const po::variables_map& vm) {
  Common c = load(vm);
  RulesGame game(rules_from(vm, c.variant), c.pos);
  if (!play_moves(game, vm, true)) return 2;
  if (vm.count("labels") && game.repetition())
    for (size_t i = 0; i < game.repetition()->labels.size(); ++i)
      std::cout << "label " << i + 1 << ": " << game.repetition()->labels[i].describe() << "\n";
  const Result& r = game.result();
  std::cout << (r.over() ? outcome_name(r.outcome) + " " + r.reason : "ongoing") << "\n";
  return 0;
}

// A record's moves played through, also past a point where these rules would have ended the game
// (a record goes on where its arbiter did not rule so; only mate and stalemate end it): `judged`
// finds where the rules end it, said once on stderr, `record` holds every move. On an illegal move
// it prints an error naming the move and returns false; `after_each` runs after every move played.
bool play_record(const GameRules& rules, const Position& start, const po::variables_map& vm, RulesGame& record,
                 const std::function<void()>& after_each = {}) {
  RulesGame judged(rules, start);
  bool noted = false;
  const std::vector<std::string> moves = vm.count("moves") ? split_moves(vm["moves"].as<std::string>()) : std::vector<std::string>{};
  for (size_t ply = 0; ply < moves.size(); ++ply) {
    const std::string& mv = moves[ply];
    std::string why;
    if (record.result().over()) {  // mate or stalemate: no move is legal
      why = "no move is legal after " + record.result().reason;
    } else {
      if (judged.result().over() && !noted) {
        std::cerr << "note: these rules end the game at ply " << ply << " (" << outcome_name(judged.result().outcome) << " "
                  << judged.result().reason << "); the moves after it are played all the same\n";
        noted = true;
      }
      if (record.play(mv, &why) == RulesGame::MoveError::None) {
        if (!judged.result().over()) judged.play(mv);
        if (after_each) after_each();
        continue;
      }
    }
    if (after_each) after_each();
    std::cerr << "error: illegal move '" << mv << "' at ply " << ply + 1 << ": " << without_move(why, mv) << "\n";
    return false;
  }
  return true;
}

GameRules record_rules(GameRules rules) {
  rules.record_only = true;
  return rules;
}

int cmd_fen(const po::variables_map& vm) {
  Common c = load(vm);
  RulesGame record(record_rules(rules_from(vm, c.variant)), c.pos);
  if (!play_record(rules_from(vm, c.variant), c.pos, vm, record)) return 2;
  std::cout << record_fen(record) << "\n";
  return 0;
}

// Notation for every move of a record (play_record). Each move is printed as it is played, so an
// illegal one leaves those before it.
int cmd_notate(const po::variables_map& vm) {
  Common c = load(vm);
  const GameRules rules = rules_from(vm, c.variant);
  RulesGame record(record_rules(rules), c.pos);
  size_t printed = 0;
  auto print_new = [&] {
    for (; printed < record.moves().size(); ++printed) {
      const PlayedMove& pm = record.moves()[printed];
      std::cout << record_iccs(pm) << " " << pm.wxf << " " << pm.chinese << "\n";
    }
  };
  return play_record(rules, c.pos, vm, record, print_new) ? 0 : 2;
}

int cmd_bestmove(const po::variables_map& vm) {
  const Variant variant = parse_variant(vm["variant"].as<std::string>());
  const std::string fen = vm.count("fen") ? vm["fen"].as<std::string>()
                                          : (variant == Variant::Jieqi ? kJieqiStartFen : kXiangqiStartFen);
  engine::Limits limits;
  limits.movetime_ms = vm["movetime-ms"].as<int64_t>();
  if (limits.movetime_ms < 0) throw UsageError("--movetime-ms must be 0 (no limit) or more");
  if (vm.count("depth")) limits.max_depth = vm["depth"].as<int>();
  if (limits.max_depth < 1 || limits.max_depth > 64) throw UsageError("--depth must be between 1 and 64");
  if (vm.count("nodes")) limits.max_nodes = vm["nodes"].as<uint64_t>();
  if (limits.movetime_ms == 0 && !vm.count("depth") && limits.max_nodes == 0)
    throw UsageError("bestmove without a time limit needs --depth or --nodes");
  engine::Choice c = engine::choose_move(variant, fen, {}, limits, vm["seed"].as<uint64_t>());
  std::cout << "depth " << c.depth << " score " << c.score << " nodes " << c.nodes << "\n";
  std::cout << (c.move.empty() ? "none" : c.move) << "\n";
  return 0;
}

// The options each command reads. Another command's option is refused, not ignored: a script
// that passes --moves to perft or legal believes the moves were played (review, 2026-12-05).
void refuse_options_of_other_commands(const std::string& command, const po::variables_map& vm) {
  static const std::set<std::string> kPosition = {"variant", "fen", "hidden"};
  static const std::set<std::string> kRules = {"rules", "move-limit", "counted-checks", "repetitions",
                                               "free-pawns-advisors-elephants", "threefold-only"};
  std::set<std::string> takes{"help"};
  const auto add = [&takes](const std::set<std::string>& more) { takes.insert(more.begin(), more.end()); };
  if (command == "perft") add(kPosition), add({"depth", "seed", "divide"});
  else if (command == "legal") add(kPosition);
  else if (command == "judge") add(kPosition), add(kRules), add({"moves", "labels"});
  else if (command == "fen" || command == "notate") add(kPosition), add(kRules), add({"moves"});
  else if (command == "bestmove") add({"variant", "fen", "movetime-ms", "depth", "nodes", "seed"});
  else return;  // an unknown command is said so below
  for (const auto& [name, value] : vm)
    if (!value.defaulted() && !takes.count(name)) throw UsageError("--" + name + " is not an option of " + command);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {  // a mistake: the usage goes where errors go
    std::cerr << kUsage;
    return 1;
  }
  if (std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h") {
    std::cout << kUsage;
    return 0;
  }
  const std::string command = argv[1];
  po::options_description opts("options");
  opts.add_options()("help,h", "show usage")
      ("variant", po::value<std::string>()->default_value("xiangqi"), "xiangqi or jieqi")
      ("fen", po::value<std::string>(), "position (default: the start position)")
      ("depth", po::value<int>(), "perft depth; bestmove: deepest iteration")
      ("movetime-ms", po::value<int64_t>()->default_value(1000), "bestmove: time for the move (0 = none)")
      ("nodes", po::value<uint64_t>(), "bestmove: node limit")
      ("hidden", po::value<std::string>(), "fixed Jieqi identities: a0=P,b0=C,... (uppercase Red)")
      ("seed", po::value<uint64_t>()->default_value(1), "seed for identities drawn from the FEN pool")
      ("divide", "perft: print the count below each root move")
      ("rules", po::value<std::string>()->default_value("cxa"), "repetition ruleset: cxa, axf or computer")
      ("move-limit", po::value<int>(), "plies without capture before the automatic draw (0 = off)")
      ("counted-checks", po::value<int>(), "checks per side that advance the move-limit count (-1 = all)")
      ("repetitions", po::value<int>(), "judge a repetition when a position occurs for the Nth time (default 3)")
      ("free-pawns-advisors-elephants", "Jieqi variant: checks and chases by pawns, advisors and elephants are free")
      ("moves", po::value<std::string>(), "moves in ICCS, separated by spaces")
      ("threefold-only", "cxa: judge repetitions only at the threefold, not after nine forcing rounds through a cycle")
      ("labels", "judge: print the labels of a repetition window");
  try {
    po::variables_map vm;
    const po::parsed_options parsed = po::command_line_parser(argc - 1, argv + 1).options(opts).run();
    // A word that is no option (a move list without --moves, say) is refused, not dropped.
    if (const auto stray = po::collect_unrecognized(parsed.options, po::include_positional); !stray.empty())
      throw UsageError("'" + stray.front() + "' is not an option (options start with --)");
    po::store(parsed, vm);
    po::notify(vm);
    if (vm.count("help")) {
      std::cout << kUsage;
      return 0;
    }
    refuse_options_of_other_commands(command, vm);
    if (command == "perft") return cmd_perft(vm);
    if (command == "judge") return cmd_judge(vm);
    if (command == "legal") return cmd_legal(vm);
    if (command == "fen") return cmd_fen(vm);
    if (command == "notate") return cmd_notate(vm);
    if (command == "bestmove") return cmd_bestmove(vm);
    throw UsageError("unknown command '" + command + "'");
  } catch (const FenError& e) {
    std::cerr << "error: bad FEN: " << e.what() << "\n";
    return 2;
  } catch (const UsageError& e) {
    std::cerr << "error: " << e.what() << "\n" << kUsage;
    return 2;
  } catch (const po::error& e) {
    std::cerr << "error: " << e.what() << "\n" << kUsage;
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 3;
  }
}
