// libFuzzer target: xq::parse_fen on arbitrary text, for both variants. Every accepted position
// must round-trip through to_fen, generate legal moves consistently (make/unmake restores it,
// no legal move leaves the own king attacked, positions after a legal move are valid FENs),
// name its moves (Chinese/WXF), label one move for repetition adjudication, and start a
// RulesGame that accepts its own legal moves as ICCS strings. A Jieqi pool field must be read as
// written (checked against an independent reading).
#include <cstddef>
#include <cstdint>
#include <cctype>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz_common.h"
#include "rules/adjudication.h"
#include "rules/game.h"
#include "rules/jieqi.h"
#include "rules/notation.h"

using namespace xq;

namespace {

uint64_t fnv1a(const uint8_t* d, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; ++i) h = (h ^ d[i]) * 1099511628211ull;
  return h;
}

// The identity a face-down piece turns out to be when it moves (first one left in the pool).
PieceType some_reveal(const Position& pos, Square from) {
  if (!is_dark(pos.at(from))) return NoType;
  if (pos.identity(from) != NoType) return pos.identity(from);
  const auto& pool = pos.pool()[index(color_of(pos.at(from)))];
  for (int t = Advisor; t <= Pawn; ++t)
    if (pool[t] > 0) return static_cast<PieceType>(t);
  return NoType;
}

// Independent reading of the Jieqi pool field (the third field, when it is neither '-' nor a
// number): per colour and type, the plain sum of the counts as written. An accepted FEN must have
// exactly this pool, and no count above the game's material.
void check_pool_field(const std::string& text, const Position& pos) {
  std::istringstream in(text);
  std::vector<std::string> fields;
  for (std::string f; in >> f;) fields.push_back(f);
  if (pos.variant() != Variant::Jieqi || fields.size() < 3 || fields[2] == "-" ||
      fields[2].find_first_not_of("0123456789") == std::string::npos)
    return;
  static constexpr int kMax[kPieceTypes] = {0, 1, 2, 2, 2, 2, 2, 5};
  long sums[2][kPieceTypes] = {};
  const std::string& f = fields[2];
  for (size_t i = 0; i < f.size();) {
    const PieceType t = piece_type_from_letter(f[i]);
    const int c = std::isupper(static_cast<unsigned char>(f[i])) ? 0 : 1;
    size_t j = ++i;
    while (j < f.size() && j - i < 2 && std::isdigit(static_cast<unsigned char>(f[j]))) ++j;
    sums[c][t] += j == i ? 1 : std::stol(f.substr(i, j - i));
    i = j;
  }
  for (int c = 0; c < 2; ++c)
    for (int t = Advisor; t <= Pawn; ++t) {
      FUZZ_CHECK(sums[c][t] <= kMax[t], "accepted pool field '" + f + "' names " + std::to_string(sums[c][t]) + " of '" +
                                            piece_letter(static_cast<PieceType>(t)) + "' (max " + std::to_string(kMax[t]) + ")");
      FUZZ_CHECK(sums[c][t] == pos.pool()[c][t], "pool field '" + f + "' parsed as " + pool_to_string(pos.pool()));
    }
}

void exercise(const Position& pos, uint64_t seed) {
  const std::string fen = to_fen(pos);
  fuzz::check_fen_round_trip(pos, "parsed position");

  MoveList legal;
  pos.generate_legal(legal);
  FUZZ_CHECK((legal.size > 0) == pos.has_legal_move(), "has_legal_move disagrees with generate_legal for " + fen);
  const Color us = pos.side_to_move();
  for (const Move& m0 : legal) {
    Move m = m0;
    FUZZ_CHECK(m.from < kSquares && m.to < kSquares && m.from != m.to, "bad square in a legal move of " + fen);
    FUZZ_CHECK(pos.is_pseudo_legal(m) && pos.is_legal(m), "legal move " + to_iccs(m) + " not pseudo-legal/legal in " + fen);
    FUZZ_CHECK(pos.at(m.to) == kEmpty || color_of(pos.at(m.to)) != us, "legal move captures own piece in " + fen);
    FUZZ_CHECK(type_of(pos.at(m.to)) != King, "legal move " + to_iccs(m) + " captures the king in " + fen);
    const std::string chinese = to_chinese(pos, m), wxf = to_wxf(pos, m);
    FUZZ_CHECK(!chinese.empty() && wxf.size() == 4, "notation of " + to_iccs(m) + " in " + fen + ": " + chinese + " " + wxf);
    m.reveal = some_reveal(pos, m.from);
    if (is_dark(pos.at(m.from))) FUZZ_CHECK(m.reveal != NoType, "no identity left for the dark piece in " + fen);
    Position q = pos;
    Undo u = q.make(m);
    FUZZ_CHECK(!q.in_check(us), "legal move " + to_iccs(m) + " leaves the own king attacked in " + fen);
    fuzz::check_fen_round_trip(q, "after " + to_iccs(m) + " from " + fen);
    q.unmake(m, u);
    FUZZ_CHECK(fuzz::same_position(q, pos), "make/unmake of " + to_iccs(m) + " does not restore " + fen);
  }

  // Repetition labeller on one legal move (it probes captures, exchanges and short mate searches).
  if (legal.size > 0) {
    Move m = legal.moves[seed % legal.size];
    const Ruleset rs = static_cast<Ruleset>((seed >> 8) % 3);
    MoveLabel l = label_move(pos, m, rs);
    FUZZ_CHECK(!l.describe().empty(), "empty label");
  }

  // A game from this position: give every face-down piece an identity, then play legal moves as
  // ICCS strings; the game must accept each of them.
  Position start = pos;
  if (start.variant() == Variant::Jieqi) assign_from_pool(start, seed);
  RulesGame game(GameRules::defaults(start.variant()), start);
  for (int ply = 0; ply < 6 && !game.result().over(); ++ply) {
    std::vector<Move> moves = game.legal_moves();
    FUZZ_CHECK(!moves.empty(), "game not over but no legal move in " + to_fen(game.position()));
    Move m = moves[(seed >> (ply * 5)) % moves.size()];
    std::string iccs = to_iccs(m);
    // A face-down mover's reveal letter (its identity, in its colour's case) must be accepted;
    // the game's own identity decides in any case.
    const Piece mover = game.position().at(m.from);
    if ((ply & 1) && is_dark(mover)) {
      const char l = piece_letter(game.position().identity(m.from));
      iccs += color_of(mover) == Color::Red ? l : static_cast<char>(std::tolower(static_cast<unsigned char>(l)));
    }
    std::string msg;
    const size_t before = game.moves().size();
    auto err = game.play(iccs, &msg);
    FUZZ_CHECK(err == RulesGame::MoveError::None, "legal move " + iccs + " rejected in " + to_fen(game.position()) + ": " + msg);
    FUZZ_CHECK(game.moves().size() == before + 1, "move not recorded");
    fuzz::check_fen_round_trip(game.position(), "game position after " + iccs);
  }
}

// Structured mode (first byte 0x01, never part of a FEN): builds a board from (piece, square)
// byte pairs so that far more inputs are valid positions. Byte 1: bit 0 side to move, bit 1 omit
// the kings' default squares. Piece codes (low 4 bits): K A B N R C P X k a b n r c p x.
std::string fen_from_placements(const uint8_t* data, size_t size) {
  static const char kCodes[] = "KABNRCPXkabnrcpx";
  char board[kSquares];
  for (char& c : board) c = 0;
  const uint8_t flags = size > 1 ? data[1] : 0;
  if (!(flags & 2)) board[make_square(4, 0)] = 'K', board[make_square(3, 9)] = 'k';
  for (size_t i = 2; i + 1 < size; i += 2) board[data[i + 1] % kSquares] = kCodes[data[i] & 15];
  std::string fen;
  for (int r = 9; r >= 0; --r) {
    int empty = 0;
    for (int f = 0; f < 9; ++f) {
      char c = board[make_square(f, r)];
      if (!c) { ++empty; continue; }
      if (empty) fen += static_cast<char>('0' + empty), empty = 0;
      fen += c;
    }
    if (empty) fen += static_cast<char>('0' + empty);
    if (r) fen += '/';
  }
  fen += flags & 1 ? " b" : " w";
  return fen;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 512) return 0;  // a FEN is ~100 characters; room for long (bad) pool fields
  const std::string text = size > 0 && data[0] == 1 ? fen_from_placements(data, size)
                                                     : std::string(reinterpret_cast<const char*>(data), size);
  const uint64_t seed = fnv1a(data, size);
  for (Variant v : {Variant::Xiangqi, Variant::Jieqi}) {
    Position pos;
    try {
      pos = parse_fen(text, v);
    } catch (const FenError&) {
      continue;  // documented rejection; any other exception escapes and is reported as a crash
    }
    if (v == Variant::Jieqi) FUZZ_CHECK(pos.variant() == Variant::Jieqi, "variant lost");
    check_pool_field(text, pos);
    exercise(pos, seed);
  }
  return 0;
}
