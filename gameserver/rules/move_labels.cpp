// Move labels for repetition adjudication: check, mate threat and chase (with the targets'
// identities), by comparing the threat scan (threat_scan.cpp) before and after the move; the mate
// and refutation searches are in forcing_lines.cpp. The cycle verdicts are in repetition_verdict.cpp.
// Spec: shared/specs/xiangqi-rules.md §0, §2, §5; jieqi-rules.md §6. Design notes in adjudication.h.
#include "adjudication.h"
#include "forcing_lines.h"
#include "move_labels_detail.h"
#include "threat_scan.h"

#include <algorithm>
#include <array>
#include <iostream>
#include <optional>
#include <string_view>
#include <vector>

namespace xq {

std::string ruleset_name(Ruleset r) {
  switch (r) {
    case Ruleset::Cxa: return "cxa";
    case Ruleset::Axf: return "axf";
    case Ruleset::Computer: return "computer";
  }
  return "cxa";
}

std::optional<Ruleset> parse_ruleset(std::string_view s) {
  if (s == "cxa") return Ruleset::Cxa;
  if (s == "axf") return Ruleset::Axf;
  if (s == "computer") return Ruleset::Computer;
  return std::nullopt;
}

namespace {

using namespace detail;

const char* chinese_type(PieceType t) {
  switch (t) {
    case King: return "将";
    case Advisor: return "士";
    case Elephant: return "象";
    case Horse: return "马";
    case Rook: return "车";
    case Cannon: return "炮";
    case Pawn: return "兵";
    default: return "?";
  }
}

// Infers the move that led from `prev` to `pos` (one piece moved, possibly capturing).
bool infer_move(const Position& prev, const Position& pos, Move& out) {
  Square from = kNoSquare, to = kNoSquare;
  for (Square s = 0; s < kSquares; ++s) {
    if (prev.at(s) == pos.at(s)) continue;
    if (!pos.at(s)) from = s;
    else to = s;
  }
  if (from == kNoSquare || to == kNoSquare) return false;
  out = mv(from, to);
  return true;
}

}  // namespace

namespace detail {

bool may_check(const Position& p, Move m, Square k) {
  const PieceType t = type_of(p.at(m.from));
  if (p.variant() == Variant::Jieqi && (t == Advisor || t == Elephant)) return true;  // they roam there, and check
  if (aligned(m.to, k) || aligned(m.from, k) || diagonal_neighbours(m.from, k)) return true;
  const int tf = std::abs(file_of(m.to) - file_of(k)), tr = std::abs(rank_of(m.to) - rank_of(k));
  return t == Horse && ((tf == 1 && tr == 2) || (tf == 2 && tr == 1));
}

std::optional<bool> BoardMemo::find(const Position& p, uint16_t tag) const {
  const Entry& e = table_[slot(p, tag)];
  if (e.used && same(e, p, tag)) return e.answer;
  return std::nullopt;
}

void BoardMemo::store(const Position& p, bool answer, uint16_t tag) {
  Entry& e = table_[slot(p, tag)];
  for (Square q = 0; q < kSquares; ++q) e.board[q] = p.at(q);
  e.side = p.side_to_move();
  e.variant = p.variant();
  e.pool = p.pool();
  e.tag = tag;
  e.answer = answer;
  e.used = true;
}

size_t BoardMemo::slot(const Position& p, uint16_t tag) {
  uint64_t h = 1469598103934665603ull ^ static_cast<uint64_t>(p.side_to_move());  // FNV-1a
  for (Square q = 0; q < kSquares; ++q) h = (h ^ p.at(q)) * 1099511628211ull;
  h = (h ^ tag) * 1099511628211ull;
  return static_cast<size_t>(h ^ (h >> 29)) % kSlots;
}

bool BoardMemo::same(const Entry& e, const Position& p, uint16_t tag) {
  if (e.side != p.side_to_move() || e.variant != p.variant() || e.tag != tag || e.pool != p.pool()) return false;
  for (Square q = 0; q < kSquares; ++q)
    if (e.board[q] != p.at(q)) return false;
  return true;
}

// AXF and the computer rules (as Fairy-Stockfish and Pikafish read them): a threat is a chase when
// one of the pieces that would win the target attacks it anew: the moved piece from its new
// square, or another piece whose line the move opened (or whose cannon screen it made). Which
// other pieces attacked the target before does not matter. A chariot or cannon that moved along a
// line attacks anew on that line only what its own old square hid from it (it drew back from the
// target); what lies ahead on the line it attacked before.
bool new_attack(const Position& before, const Position& after, Move m, Square t, const Threat& threat) {
  const PieceType mover = type_of(after.at(m.to));
  const bool on_line = (file_of(m.from) == file_of(m.to) && file_of(t) == file_of(m.from)) ||
                       (rank_of(m.from) == rank_of(m.to) && rank_of(t) == rank_of(m.from));
  for (int i = 0; i < threat.n_winners; ++i) {
    const Square w = threat.winners[i];
    if (w != m.to) {
      if (!before.attacks(w, t)) return true;
    } else if ((mover != Rook && mover != Cannon) || !on_line) {
      return true;
    } else {
      Position both = before;  // the mover on its old square and its new one
      both.put(m.to, after.at(m.to));
      if (!both.attacks(m.to, t)) return true;
    }
  }
  return false;
}

MoveLabel label_move_ids(const Position& before, Move m, Ruleset rs, const Position* previous,
                                const Move* prev_move, const int* ids, const AdjudicationOptions& options) {
  MoveLabel label;
  const Color us = before.side_to_move(), them = opposite(us);
  Position after = before;
  Scratch sa(before);
  sa.play(m);
  after = sa.p;
  label.check = after.in_check(them);
  if (label.check && options.pawns_advisors_elephants_free) {
    std::vector<Square> checkers;
    after.attackers(after.king_square(them), us, checkers);
    label.check = std::any_of(checkers.begin(), checkers.end(), [&](Square c) {
      PieceType t = type_of(after.at(c));
      return t != Pawn && t != Advisor && t != Elephant;
    });
    label.free_check = !label.check;
  }
  const bool evasion = before.in_check(us);
  const bool king_move = type_of(before.at(m.from)) == King;
  if (rs == Ruleset::Cxa && evasion && king_move) return label;  // 26.1.3: always idle

  // Threats after the move.
  std::array<Threat, kSquares> now{}, base{};
  if (trace()) std::cerr << "  label " << to_iccs(m) << " now:\n";
  threats_for(after, us, rs, options, now);
  if (rs == Ruleset::Cxa && after.in_check(them)) {
    // The opponent answers a check before any capture, and may then recapture what the check
    // left it unable to (audit 12, 2026-12-04: d9e9+ read 捉(炮) because the b2 cannon, guarding
    // h2 through c2, could not recapture while red stood in check). A piece is threatened only
    // by what it loses whatever the answer.
    const std::array<int, kSquares> least = check_wins_per_piece(before, m, options);
    for (Square t = 0; t < kSquares; ++t) now[t].gain = std::min(now[t].gain, least[t]);
  }
  if (trace()) std::cerr << "  base:\n";
  // The same threats with the moved piece lifted off the board.
  std::array<Threat, kSquares> without_mover{};
  // A piece that blocks a check cannot be lifted to see what it takes part in: our king would be in
  // check and every capture illegal. Such a block answers the check, and under CXA (26.1.4) it
  // chases only what was not threatened before the checking move (review, 2026-12-04: a block
  // that opened a rook's line to a cannon the horse already attacked read as a chase).
  bool blocks_check = false;
  {
    Position lifted = after;
    lifted.put(m.to, kEmpty);
    blocks_check = !king_move && evasion && lifted.in_check(us);
    if (king_move) without_mover = now;  // the king takes part in no threat
    else threats_for(lifted, us, rs, options, without_mover, false, true);
  }
  // Baseline: threats before the move. Under CXA a move that answers a forcing move (a check, or
  // a mate threat) only chases what was not already threatened before that forcing move
  // (26.1.4), so the position before the opponent's last move is a second baseline.
  // Before the move we were to move: our direct attacks stood as threats, offers or not, unless
  // we were in check and they were no legal answer to it (audit 11, 2026-12-04).
  threats_for(before, us, rs, options, base, true, true, !before.in_check(us));
  const bool answering = rs == Ruleset::Cxa && previous && prev_move &&
                         (evasion || mate_threat(before, them, options));
  if (rs == Ruleset::Cxa && evasion) {
    // A threat that stood right after the opponent's check — e.g. its checking move unguarded one
    // of its pieces — is brought upon itself, not created by the evasion (参考图21/22, 24.18):
    // judge it with the checking pieces lifted off the board, where our captures are legal.
    Position lifted = before;
    std::vector<Square> checkers;
    before.attackers(before.king_square(us), them, checkers);
    for (Square c : checkers) lifted.put(c, kEmpty);
    if (!lifted.in_check(us)) {
      std::array<Threat, kSquares> own{};
      threats_for(lifted, us, rs, options, own, true, true);
      for (Square t = 0; t < kSquares; ++t)
        if (lifted.at(t)) base[t].gain = std::max(base[t].gain, own[t].gain);
    }
  }
  if (answering) {
    std::array<Threat, kSquares> old{};
    threats_for(*previous, us, rs, options, old, true, true);
    // Map squares of `previous` to squares of `before`.
    for (Square s = 0; s < kSquares; ++s) {
      if (s == prev_move->to) continue;  // captured there
      Square d = s == prev_move->from ? prev_move->to : s;
      base[d].gain = std::max(base[d].gain, old[s].gain);
    }
  }
  // A non-king answer to a check does not chase what only the checking move exposed: a piece the
  // check itself unguarded, or whose line to us it opened, is brought upon itself (参考图21/22,
  // 24.18), not created by the answer (audit 13, 2026-12-04: a rook's check unguarded its pawn and
  // the advisor's block read 捉(兵)). Judged by making the same answer before the check: a threat
  // it makes there too is the answer's own. (The checking piece itself is not judged so: attacking
  // it is the answer's doing.)
  std::optional<std::array<Threat, kSquares>> answer_alone;
  if (rs == Ruleset::Cxa && evasion && !king_move && previous && prev_move && m.to != prev_move->to &&
      m.from != prev_move->to && m.to != prev_move->from && !previous->at(m.to) &&
      previous->at(m.from) == before.at(m.from) && !previous->in_check(us)) {
    Position alone = *previous;
    alone.put(m.to, after.at(m.to));
    alone.put(m.from, kEmpty);
    answer_alone.emplace();
    threats_for(alone, us, rs, options, *answer_alone);
  }
  for (Square t = 0; t < kSquares; ++t) {
    if (now[t].gain <= 0) continue;
    if (answer_alone && t != prev_move->to && (*answer_alone)[t].gain < now[t].gain) {
      if (trace()) std::cerr << "  " << square_name(t) << ": only the check exposed it\n";
      continue;
    }
    Square t_before = t;  // enemy pieces do not move with our move
    // New: not threatened (as much) before, or the moved piece takes part in the threat (it
    // would be smaller without it) — a piece that moves and attacks chases, as in Pikafish.
    // A threat won through checks (抽将) is no direct attack by the moved piece: it is new only
    // when it is bigger than before.
    // A combination may take its material from any of several pieces: it compares with the
    // largest threat, before, on any of them (or of a combination that could take any of them).
    SquareSet pieces = now[t].alternatives;
    pieces.set(t_before);
    auto threatened = [&](const std::array<Threat, kSquares>& in) {
      int g = 0;
      for (Square a = 0; a < kSquares; ++a)
        if (pieces.test(a) || (in[a].alternatives & pieces).any()) g = std::max(g, in[a].gain);
      return g;
    };
    if (trace())
      std::cerr << "  compare " << square_name(t) << " now " << now[t].gain << " alts " << now[t].alternatives.count()
                << " base " << threatened(base) << " without " << threatened(without_mover) << "\n";
    if (rs == Ruleset::Cxa) {
      // The moved piece is the only one whose capture wins the target: it takes part, even where
      // lifting it would reopen the line of a piece it blocks, or leave a combination that wins
      // the target too (audit 2026-12-04: a chariot that steps in front of its cannon and takes
      // over its attack on a horse chases the horse). Not for an answer to a forcing move, which
      // chases only what was not threatened before that move (26.1.4).
      const bool sole_winner = !answering && now[t].n_winners > 0 &&
                               std::all_of(now[t].winners.begin(), now[t].winners.begin() + now[t].n_winners,
                                           [&](int8_t w) { return w == m.to; });
      // A piece of ours that wins the target now and could not even reach it before, not having
      // moved: the move opened its line (a chariot that steps off its cannon's file; two pieces
      // chasing in turn, 二子轮捉), a discovered chase even where the mover attacked the target
      // before. (Not a piece whose capture only became sound: the target stood attacked; nor one
      // that reaches the target neither before nor after, winning it only with an offered piece
      // lifted: the move opened nothing for it, audit 10's J1.)
      const bool uncovered = !answering && std::any_of(now[t].winners.begin(), now[t].winners.begin() + now[t].n_winners,
                                                       [&](int8_t w) {
                                                         return w != m.to && !before.attacks(w, t) && after.attacks(w, t);
                                                       });
      if (threatened(base) >= now[t].gain && !uncovered &&
          (now[t].via_check || blocks_check || (!sole_winner && threatened(without_mover) >= now[t].gain)))
        continue;
    } else if (!new_attack(before, after, m, t, now[t])) {
      continue;
    }
    ChaseTarget c;
    c.piece_id = ids ? ids[t_before] : t_before;
    c.square = t;
    c.type = type_of(after.at(t));
    c.unrooted = now[t].unrooted;
    // Joint chase also when the moved piece helps another piece that already attacks the target
    // to win it (e.g. by pinning its defender); merely opening a line or becoming a cannon's screen
    // is a discovered chase by one piece.
    bool mover_captures = false;
    for (int i = 0; i < now[t].n_winners; ++i) mover_captures |= now[t].winners[i] == m.to;
    bool attacked_without_mover = false;
    for (Square a = 0; a < kSquares; ++a) attacked_without_mover |= pieces.test(a) && without_mover[a].attacked;
    c.joint = now[t].joint || (!mover_captures && attacked_without_mover && threatened(without_mover) < now[t].gain);
    c.under_protected = now[t].under_protected;
    label.chases.push_back(c);
  }
  // A mate threat counts even when it answers a check and existed before (图19: a block that
  // keeps a mate threat is 杀); only the general's own evasion is excused (26.1.3, above).
  if (rs == Ruleset::Cxa && !label.check) label.kill = mate_threat(after, us, options);
  // A mate threat by checks subsumes the material its checks would win on the way.
  if (label.kill) {
    std::vector<ChaseTarget> kept;
    for (const ChaseTarget& c : label.chases)
      if (!now[c.square].via_check) kept.push_back(c);
    label.chases = std::move(kept);
  }
  return label;
}

}  // namespace detail

MoveLabel label_move(const Position& before, Move m, Ruleset ruleset, const Position* previous,
                     const AdjudicationOptions& options) {
  Move pm;
  bool have = previous && infer_move(*previous, before, pm);
  return detail::label_move_ids(before, m, ruleset, have ? previous : nullptr, have ? &pm : nullptr, nullptr, options);
}

std::string MoveLabel::describe() const {
  std::string s;
  if (check) s += "将";
  if (kill) s += s.empty() ? "杀" : "+杀";
  if (!chases.empty()) {
    s += s.empty() ? "捉(" : "+捉(";
    // Named by rank (车 马 炮 士 象 兵), not in board order, which a mirror image or a colour swap
    // would change.
    static constexpr PieceType kOrder[] = {Rook, Horse, Cannon, Advisor, Elephant, Pawn, King, NoType};
    auto rank = [](PieceType t) { return std::find(std::begin(kOrder), std::end(kOrder), t) - std::begin(kOrder); };
    std::vector<PieceType> types;
    for (const auto& c : chases) types.push_back(c.type);
    std::stable_sort(types.begin(), types.end(), [&](PieceType a, PieceType b) { return rank(a) < rank(b); });
    for (size_t i = 0; i < types.size(); ++i) {
      if (i) s += ",";
      s += chinese_type(types[i]);
    }
    s += ")";
  }
  return s.empty() ? "闲" : s;
}

}  // namespace xq
