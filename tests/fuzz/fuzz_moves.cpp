// libFuzzer target: xq::RulesGame::play(const std::string&) from the start positions (and, in one
// mode, from a FEN given by the input), with moves given as arbitrary strings and as indices into
// the legal move list (to reach deep positions: repetitions, move limit, mates).
//
// Input layout: byte 0 = flags
//   bit 0      variant (0 Xiangqi, 1 Jieqi; Jieqi identities from assign_from_pool(seed = byte 1))
//   bits 1-2   ruleset (cxa, axf, computer, cxa)
//   bit 3      binary mode: each following byte b < 0xF0 plays legal_moves()[b % n] as ICCS text;
//              b >= 0xF0 plays the next (b - 0xEE) raw bytes as a move string
//   bit 4      the text after byte 1 up to the first '\n' is a start FEN (else the start position)
//   bit 5      a short move limit (10 plies) so move-limit draws are reachable
// byte 1 = seed. Text mode: the rest is split on whitespace/','/';' into move strings; "#n" plays
// legal move n.
// Invariants: a rejected move changes nothing; an accepted one adds a ply; legal moves are
// accepted until the game is over, after which every move is refused with GameOver; every
// reached position round-trips through FEN; the per-viewer views can be built.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_common.h"
#include "rules/game.h"
#include "rules/jieqi.h"
#include "rules/view.h"

using namespace xq;

namespace {

struct Driver {
  RulesGame& game;
  void play(const std::string& s, bool must_accept) {
    const Position before = game.position();
    const size_t plies = game.moves().size();
    const bool over = game.result().over();
    std::string msg;
    auto err = game.play(s, &msg);
    if (err != RulesGame::MoveError::None) {
      FUZZ_CHECK(fuzz::same_position(game.position(), before) && game.moves().size() == plies,
                 "rejected move '" + s + "' changed the game");
      FUZZ_CHECK(!must_accept || over, "legal move '" + s + "' rejected in " + to_fen(before) + ": " + msg);
      if (over) FUZZ_CHECK(err == RulesGame::MoveError::GameOver || err == RulesGame::MoveError::BadFormat,
                           "move after the end not refused as GameOver");
      return;
    }
    FUZZ_CHECK(!over, "move '" + s + "' accepted after the end of the game");
    FUZZ_CHECK(game.moves().size() == plies + 1, "accepted move not recorded");
    FUZZ_CHECK(game.position().side_to_move() != before.side_to_move(), "side to move did not change");
    FUZZ_CHECK(!game.position().in_check(before.side_to_move()), "accepted move '" + s + "' leaves its king attacked in " + to_fen(before));
    fuzz::check_fen_round_trip(game.position(), "after '" + s + "' from " + to_fen(before));
    if (game.result().over()) FUZZ_CHECK(!game.result().reason.empty(), "game over without a reason");
  }
  void play_index(unsigned i) {
    std::vector<Move> moves = game.legal_moves();
    if (moves.empty()) {
      FUZZ_CHECK(game.result().over(), "no legal move but the game goes on: " + to_fen(game.position()));
      return;
    }
    Move m = moves[i % moves.size()];
    play(to_iccs(m), true);
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2 || size > 4096) return 0;
  const uint8_t flags = data[0], seed = data[1];
  const Variant variant = flags & 1 ? Variant::Jieqi : Variant::Xiangqi;
  size_t pos = 2;

  Position start;
  if (flags & 16) {
    size_t end = pos;
    while (end < size && data[end] != '\n') ++end;
    try {
      start = parse_fen(std::string(reinterpret_cast<const char*>(data + pos), end - pos), variant);
    } catch (const FenError&) {
      return 0;
    }
    pos = end < size ? end + 1 : end;
  } else {
    start = variant == Variant::Jieqi ? Position::jieqi_start() : Position::xiangqi_start();
  }
  if (start.variant() == Variant::Jieqi) assign_from_pool(start, seed);

  GameRules rules = GameRules::defaults(start.variant());
  const Ruleset rulesets[4] = {Ruleset::Cxa, Ruleset::Axf, Ruleset::Computer, Ruleset::Cxa};
  rules.ruleset = rulesets[(flags >> 1) & 3];
  if (flags & 32) rules.move_limit_plies = 10;
  RulesGame game(rules, start);
  Driver d{game};

  if (flags & 8) {
    while (pos < size) {
      uint8_t b = data[pos++];
      if (b < 0xF0) {
        d.play_index(b);
      } else {
        size_t n = std::min<size_t>(b - 0xEE, size - pos);
        d.play(std::string(reinterpret_cast<const char*>(data + pos), n), false);
        pos += n;
      }
    }
  } else {
    std::string tok;
    auto flush = [&] {
      if (tok.empty()) return;
      if (tok[0] == '#' && tok.size() > 1 && tok.size() < 6 && tok.find_first_not_of("0123456789", 1) == std::string::npos)
        d.play_index(static_cast<unsigned>(std::stoul(tok.substr(1))));
      else
        d.play(tok, false);
      tok.clear();
    };
    for (; pos < size; ++pos) {
      char c = static_cast<char>(data[pos]);
      if (c == ' ' || c == '\n' || c == '\t' || c == ',' || c == ';') flush();
      else tok += c;
    }
    flush();
  }

  // Views for both players and spectators (Jieqi secrecy applied); their FENs must parse.
  for (Viewer v : {Viewer::Red, Viewer::Black, Viewer::Spectator}) {
    GameView view = view_of(game, v);
    FUZZ_CHECK(view.moves.size() == game.moves().size(), "view lost moves");
    try {
      (void)parse_fen(view.fen, game.position().variant());
    } catch (const FenError& e) {
      FUZZ_CHECK(false, "view FEN '" + view.fen + "' rejected: " + e.what());
    }
  }
  return 0;
}
