#include "server/views.h"

#include <algorithm>

#include "rules/fen.h"

namespace gs {
namespace v1 = xq::v1;

xq::Viewer viewer_for(const GameConfig& c, const std::string& user_id) {
  if (user_id == c.red.user_id) return xq::Viewer::Red;
  if (user_id == c.black.user_id) return xq::Viewer::Black;
  return xq::Viewer::Spectator;
}

v1::Side to_side(xq::Color c) { return c == xq::Color::Red ? v1::RED : v1::BLACK; }
v1::Variant to_variant(xq::Variant v) { return v == xq::Variant::Jieqi ? v1::JIEQI : v1::XIANGQI; }

static std::string letter(xq::PieceType t) { return t == xq::NoType ? "" : std::string(1, xq::piece_letter(t)); }

void fill_player(v1::Player* p, const PlayerInfo& i) {
  p->set_user_id(i.user_id);
  p->set_name(i.name);
  p->set_guest(i.guest);
  p->set_rating(i.rating);
  p->set_bot(i.bot);
}

static void fill_move(v1::MoveView* m, const GameSession& s, size_t ply, xq::Viewer v) {
  xq::MoveView mv = xq::view_of_move(s.rules_game(), ply - 1, v);
  m->set_ply(static_cast<uint32_t>(ply));
  m->set_iccs(mv.iccs);
  m->set_chinese(mv.chinese);
  m->set_wxf(mv.wxf);
  m->set_check(mv.check);
  m->set_reveal(letter(mv.reveal));
  m->set_capture(mv.captured);
  m->set_captured_type(letter(mv.captured_type));
  const auto& clocks = s.ply_clocks();
  if (ply - 1 < clocks.size()) {
    m->set_red_ms(static_cast<uint32_t>(std::max<Millis>(0, clocks[ply - 1].first)));
    m->set_black_ms(static_cast<uint32_t>(std::max<Millis>(0, clocks[ply - 1].second)));
  }
}

void fill_live_clock(v1::ClockState* c, const GameSession& s, Millis now, int64_t wall) {
  const Clock& k = s.clock();
  c->set_red_ms(static_cast<uint32_t>(std::max<Millis>(0, k.remaining(xq::Color::Red, now))));
  c->set_black_ms(static_cast<uint32_t>(std::max<Millis>(0, k.remaining(xq::Color::Black, now))));
  c->set_running(k.running() && !s.over() ? to_side(k.side_running()) : v1::SIDE_NONE);
  c->set_server_time_ms(static_cast<uint64_t>(wall));
}

// GameState and GameEvent both carry it (a template: two unrelated message types, one field).
template <class Message>
static void fill_requested_limit(Message& out, const GameSession& s) {
  const auto& limit = s.rules_game().requested_limit();
  if (!limit) return;
  auto* r = out.mutable_requested_move_limit();
  r->set_requested_by(limit->requester ? to_side(*limit->requester) : v1::SIDE_NONE);  // none: both sides
  r->set_by_arbiter(limit->by_arbiter);
  r->set_counted_plies(static_cast<uint32_t>(limit->counted_plies));
  r->set_limit_plies(static_cast<uint32_t>(limit->limit_plies));
}

static v1::Outcome to_outcome(const xq::Result& r) {
  if (r.reason == "abort") return v1::ABORTED;
  switch (r.outcome) {
    case xq::Outcome::RedWins: return v1::RED_WINS;
    case xq::Outcome::BlackWins: return v1::BLACK_WINS;
    case xq::Outcome::Draw: return v1::DRAW;
    default: return v1::ONGOING;
  }
}

static void fill_result(v1::GameResult* out, const GameSession& s) {
  out->set_outcome(to_outcome(s.result()));
  out->set_reason(s.result().reason);
  // The secret is published only once the game is over.
  if (s.over() && s.config().variant == xq::Variant::Jieqi) {
    out->set_assignment(s.config().assignment);
    out->set_salt(s.config().salt);
  }
}

v1::GameState state_for(const GameSession& s, xq::Viewer v, Millis now, int64_t wall) {
  const GameConfig& c = s.config();
  v1::GameState st;
  st.set_game_id(c.id);
  st.set_version(s.version());
  st.set_variant(to_variant(c.variant));
  st.set_ruleset(c.ruleset);
  st.mutable_time_control()->set_initial_ms(static_cast<uint32_t>(c.tc.initial_ms));
  st.mutable_time_control()->set_increment_ms(static_cast<uint32_t>(c.tc.increment_ms));
  fill_player(st.mutable_red(), c.red);
  fill_player(st.mutable_black(), c.black);
  st.set_rated(c.rated);
  st.set_you(v == xq::Viewer::Red ? v1::RED : v == xq::Viewer::Black ? v1::BLACK : v1::SIDE_NONE);
  // Jieqi: the public start FEN (all face-down); the real start position holds the identities.
  st.set_start_fen(c.variant == xq::Variant::Jieqi ? xq::kJieqiStartFen : xq::kXiangqiStartFen);
  xq::GameView gv = xq::view_of(s.rules_game(), v);
  st.set_fen(gv.fen);
  for (size_t ply = 1; ply <= s.plies(); ++ply) fill_move(st.add_moves(), s, ply, v);
  for (const auto& cp : gv.captured) {
    auto* p = st.add_captured();
    p->set_owner(to_side(cp.owner));
    p->set_type(letter(cp.type));
    p->set_was_dark(cp.was_dark);
  }
  fill_live_clock(st.mutable_clock(), s, now, wall);
  if (auto by = s.draw_offer_by()) st.set_draw_offer_by(to_side(*by));
  if (auto by = s.takeback_proposed_by()) st.set_takeback_proposed_by(to_side(*by));
  st.set_takebacks_allowed(s.takebacks_allowed());
  st.set_time_gift_ms(static_cast<uint32_t>(s.time_gift_ms()));
  if (v == xq::Viewer::Red || v == xq::Viewer::Black) {
    const xq::Color me = v == xq::Viewer::Red ? xq::Color::Red : xq::Color::Black;
    st.set_takebacks_left(static_cast<uint32_t>(s.takebacks_left(me)));
    st.set_time_gifts_left(static_cast<uint32_t>(s.time_gifts_left(me)));
  }
  fill_result(st.mutable_result(), s);
  if (c.variant == xq::Variant::Jieqi) {
    st.set_commitment(c.commitment);
    st.set_capture_visibility(c.capture_visibility);
  }
  if (c.options != RuleOptions{}) fill_rule_options(st.mutable_rule_options(), c.options);
  fill_requested_limit(st, s);
  // Relative, so the viewer's own clock need not agree with ours; at least 1 ms while it applies.
  if (auto due = s.first_move_due_wall()) {
    st.set_first_move_due_in_ms(static_cast<uint32_t>(std::clamp<int64_t>(*due - wall, 1, UINT32_MAX)));
    st.set_first_move_aborts(!c.tournament());
  }
  st.set_pool(c.pool);
  if (!c.tournament() && c.first_move_ms > 0)
    st.set_first_move_ms(static_cast<uint32_t>(std::min<int64_t>(c.first_move_ms, UINT32_MAX)));
  return st;
}

void fill_rule_options(v1::RuleOptions* out, const RuleOptions& o) {
  if (o.repetitions != RuleOptions{}.repetitions) out->set_repetitions(static_cast<uint32_t>(o.repetitions));
  out->set_pawns_advisors_elephants_free(o.pawns_advisors_elephants_free);
  out->set_move_limit_plies(static_cast<uint32_t>(o.move_limit_plies));
  if (o.counted_checks_per_side) out->set_counted_checks_per_side(*o.counted_checks_per_side);
  out->set_requested_move_limit_plies(static_cast<uint32_t>(o.requested_move_limit_plies));
  out->set_requested_move_limit_forcing_cap(static_cast<uint32_t>(o.requested_move_limit_forcing_cap));
}

RuleOptions rule_options_from(const v1::RuleOptions& in) {
  RuleOptions o;
  if (in.repetitions() != 0) o.repetitions = static_cast<int>(std::min<uint32_t>(in.repetitions(), 1000));
  o.pawns_advisors_elephants_free = in.pawns_advisors_elephants_free();
  o.move_limit_plies = static_cast<int>(std::min<uint32_t>(in.move_limit_plies(), 100000));
  if (in.has_counted_checks_per_side()) o.counted_checks_per_side = in.counted_checks_per_side();
  o.requested_move_limit_plies = static_cast<int>(std::min<uint32_t>(in.requested_move_limit_plies(), 100000));
  o.requested_move_limit_forcing_cap = static_cast<int>(std::min<uint32_t>(in.requested_move_limit_forcing_cap(), 100000));
  return o;
}

v1::GameEvent event_for(const GameSession& s, const GameEvent& e, xq::Viewer v, bool latest, Millis now, int64_t wall) {
  v1::GameEvent out;
  out.set_game_id(s.config().id);
  out.set_version(e.version);
  out.set_side(to_side(e.side));
  switch (e.kind) {
    case EventKind::Move:
      out.set_kind(v1::GameEvent::MOVE);
      fill_move(out.mutable_move(), s, e.ply, v);
      if ((v == xq::Viewer::Red && e.side == xq::Color::Red) || (v == xq::Viewer::Black && e.side == xq::Color::Black))
        out.set_client_move_id(e.client_move_id);
      break;
    case EventKind::DrawOffered: out.set_kind(v1::GameEvent::DRAW_OFFERED); break;
    case EventKind::DrawDeclined: out.set_kind(v1::GameEvent::DRAW_DECLINED); break;
    case EventKind::MoveLimitRequested:
      out.set_kind(v1::GameEvent::MOVE_LIMIT_REQUESTED);
      if (e.by_arbiter && !e.one_side) out.set_side(v1::SIDE_NONE);
      break;
    case EventKind::TakebackProposed: out.set_kind(v1::GameEvent::TAKEBACK_PROPOSED); break;
    case EventKind::TakebackDeclined: out.set_kind(v1::GameEvent::TAKEBACK_DECLINED); break;
    case EventKind::TakenBack:
      out.set_kind(v1::GameEvent::TAKEN_BACK);
      out.set_plies_undone(static_cast<uint32_t>(e.undone));
      break;
    case EventKind::TimeGiven: out.set_kind(v1::GameEvent::TIME_GIVEN); break;
    case EventKind::Ended:
      out.set_kind(v1::GameEvent::GAME_ENDED);
      out.set_side(e.aborted_by ? to_side(e.side) : v1::SIDE_NONE);
      fill_result(out.mutable_result(), s);
      break;
  }
  if (latest) {
    out.set_fen(xq::view_fen(s.rules_game(), v));
    fill_live_clock(out.mutable_clock(), s, now, wall);
    fill_requested_limit(out, s);
  } else {
    out.mutable_clock()->set_red_ms(static_cast<uint32_t>(std::max<Millis>(0, e.red_ms)));
    out.mutable_clock()->set_black_ms(static_cast<uint32_t>(std::max<Millis>(0, e.black_ms)));
  }
  return out;
}

v1::GameSummary summary_of(const GameSession& s) {
  v1::GameSummary g;
  g.set_game_id(s.config().id);
  g.set_variant(to_variant(s.config().variant));
  fill_player(g.mutable_red(), s.config().red);
  fill_player(g.mutable_black(), s.config().black);
  g.set_plies(static_cast<uint32_t>(s.plies()));
  g.mutable_time_control()->set_initial_ms(static_cast<uint32_t>(s.config().tc.initial_ms));
  g.mutable_time_control()->set_increment_ms(static_cast<uint32_t>(s.config().tc.increment_ms));
  return g;
}

}  // namespace gs
