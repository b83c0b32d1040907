// The Hub creating games: from an accepted seek or a matchmaker's request, sealed (the Jieqi
// secret and its commitment), registered on its actor and announced to its players.
#include "server/hub.h"

#include <boost/json.hpp>
#include <algorithm>
#include <iostream>
#include <optional>
#include <utility>

#include "game/codec.h"
#include "rules/jieqi.h"
#include "server/views.h"
#include "store/keys.h"
#include "store/matchmaker_bus.h"
#include "store/rating_store.h"

namespace json = boost::json;

namespace gs {
namespace v1 = xq::v1;

static xq::Variant variant_from(const std::string& v) {
  if (v == "jieqi") return xq::Variant::Jieqi;
  if (v == "xiangqi") return xq::Variant::Xiangqi;
  throw std::invalid_argument("variant must be xiangqi or jieqi");
}

bool Hub::create_scheduled_game(const std::string& spec_json) {
  auto v = json::parse(spec_json);
  const auto& o = v.as_object();
  auto str = [&](const json::object& obj, const char* k, const char* def) {
    auto* p = obj.if_contains(k);
    return p && p->is_string() ? std::string(p->as_string()) : std::string(def);
  };
  auto num = [&](const char* k, int64_t def) {
    auto* p = o.if_contains(k);
    return p && p->is_number() ? p->to_number<int64_t>() : def;
  };
  GameConfig cfg;
  cfg.id = str(o, "game_id", "");
  if (cfg.id.empty() || cfg.id.size() > 100) throw std::invalid_argument("bad game id");
  cfg.variant = variant_from(str(o, "variant", "xiangqi"));
  cfg.ruleset = str(o, "ruleset", "cxa");
  cfg.capture_visibility = str(o, "capture_visibility", "capturer");
  cfg.options = read_rule_options(o);
  if (std::string why = rule_options_error(cfg.options, cfg.variant); !why.empty()) throw std::invalid_argument(why);
  cfg.tc = {num("initial_ms", 900000), num("increment_ms", 0)};
  for (auto [key, player] : {std::pair{"red", &cfg.red}, std::pair{"black", &cfg.black}}) {
    const auto& p = o.at(key).as_object();
    player->user_id = str(p, "user_id", "");
    player->name = str(p, "name", player->user_id.c_str());
    player->guest = player->user_id.rfind("g-", 0) == 0;
    if (player->user_id.empty()) throw std::invalid_argument("a player has no user id");
  }
  cfg.event_id = str(o, "event_id", "");
  cfg.pool = cfg.event_id.empty() ? str(o, "pool", "") : "";
  if (cfg.pool.size() > 64) throw std::invalid_argument("bad pool name");
  cfg.round = static_cast<int>(num("round", 0));
  cfg.board = static_cast<int>(num("board", 0));
  cfg.no_show_ms = cfg.event_id.empty() ? 0 : num("no_show_ms", 0);
  cfg.spectator_delay_ms = cfg.event_id.empty() ? 0 : std::clamp<int64_t>(num("spectator_delay_ms", 0), 0, 5 * 60'000);
  // Rated when asked for and both players have accounts (guests' games never change ratings).
  auto* rated = o.if_contains("rated");
  cfg.rated = rated && rated->is_bool() && rated->as_bool() && !cfg.red.guest && !cfg.black.guest;
  fill_ratings(cfg);
  seal(cfg);
  const GameSession validated(cfg);  // throws on a bad ruleset or visibility, before anything is stored
  if (!store_.create_if_absent(cfg)) {
    // The request came again (the node that took it died, or Redis failed, before acknowledging
    // it): if nobody has moved yet, the players may never have heard of the game.
    if (store_.is_live(cfg.id) && redis_.command({"LLEN", keys::game_events(cfg.id)}).integer == 0)
      announce_game_ready(cfg);
    return false;
  }
  launch(cfg, GameSession(cfg));  // cfg may now be the stored config of a creation cut short
  announce_game_ready(cfg);
  // A game decided while its request waited (a disqualification, a cancel: the game is live now,
  // so the organiser's action either found it or left this): ended so at once. So too one of a
  // player banned as the matchmaker paired them (the ban crossed the round's pairing): lost by
  // them (a forfeit to the event: nobody moved), rather than the opponent waiting out the no-show.
  std::optional<xq::Result> ends = cfg.tournament() ? decided_before_creation(cfg.id) : std::nullopt;
  for (const PlayerInfo* p : {&cfg.red, &cfg.black})
    if (!ends && auth_.banned(p->user_id)) ends = xq::Result::win(p == &cfg.red ? xq::Color::Black : xq::Color::Red, "banned");
  if (ends)
    if (auto a = find_game(cfg.id)) a->post([r = *ends](GameActor& g) { g.admin_end(r); });
  return true;
}

// The players may be connected to any node: the notice goes to all of them.
void Hub::announce_game_ready(const GameConfig& cfg) {
  v1::ServerMessage note;
  auto* n = note.mutable_notice();
  n->set_kind("game_ready");
  n->set_event_id(cfg.event_id);
  n->set_game_id(cfg.id);
  n->set_text(cfg.red.name + " – " + cfg.black.name);
  NodeMessage nm;
  nm.kind = NodeMessage::Kind::Notice;
  nm.from_node = options_.node_id;
  nm.payload = note.SerializeAsString();
  nm.users = {cfg.red.user_id, cfg.black.user_id};
  bool sent = false;
  try {
    sent = redis_.command({"PUBLISH", keys::kNodesChannel, encode(nm)}).integer > 0;
  } catch (const std::exception&) {
  }
  if (!sent)
    push_notice({cfg.red.user_id, cfg.black.user_id}, "game_ready", cfg.event_id, cfg.id, cfg.red.name + " – " + cfg.black.name);
}

void Hub::seal(GameConfig& cfg) {
  if (cfg.variant == xq::Variant::Jieqi) {
    // The identities come from the OS CSPRNG; the commitment is public from the start.
    xq::Assignment a = xq::draw_assignment();
    cfg.assignment = a.to_string();
    cfg.salt = xq::random_hex(16);
    cfg.commitment = xq::commitment(a, cfg.salt);
  }
  cfg.created_at_ms = wall_ms();
  cfg.first_move_ms = cfg.tournament() ? 0 : options_.first_move_ms;  // tournaments have their no-show rule
}

void Hub::fill_ratings(GameConfig& cfg) {
  RatingStore ratings(redis_);
  for (PlayerInfo* p : {&cfg.red, &cfg.black}) {
    if (!p->guest) p->rating = static_cast<int>(std::lround(ratings.get(variant_name(cfg.variant), p->user_id).rating));
    p->bot = auth_.is_bot(User{p->user_id, p->name, p->guest});
  }
}

void Hub::launch(const GameConfig& cfg, GameSession session) {
  auto actor = make_actor(std::move(session));
  metrics_.games_started_total++;
  {
    std::lock_guard l(mu_);
    auto [it, fresh] = games_.emplace(cfg.id, actor);
    if (!fresh) {  // a forwarded request adopted it in the moment between creation and here
      metrics_.live_games--;
      actor = it->second;
    } else {
      // Queued before the lock is let go: a move another thread posts as soon as it can find the
      // game runs after the start, with the clock running (before, a first move that came in
      // between was charged the time since the clock's origin: hours).
      actor->post([](GameActor& a) { a.start(/*reloaded=*/false); });
    }
  }
  // Before the players hear of the game: a seek of theirs taken up in between started a second one.
  // (Also when a request adopted the game first: it is new all the same.)
  close_open_seeks(cfg);
  {
    // The players' connections as they are now, greeted while the lock is held: one that closes
    // from here on has its unsubscription queued after its greeting (read before the Redis round
    // trips above, a closed one was greeted after it left and counted as present).
    std::lock_guard l(mu_);
    std::vector<std::pair<std::shared_ptr<Connection>, xq::Viewer>> players;
    for (auto* p : {&cfg.red, &cfg.black}) {
      auto it = user_conns_.find(p->user_id);
      if (it == user_conns_.end()) continue;
      for (auto id : it->second) {
        auto ci = conns_.find(id);
        if (ci == conns_.end()) continue;
        if (auto cc = ci->second.conn.lock()) {
          forget_unloaded_games(ci->second);
          ci->second.games.insert(cfg.id);
          players.emplace_back(cc, p == &cfg.red ? xq::Viewer::Red : xq::Viewer::Black);
        }
      }
    }
    actor->post([players = std::move(players)](GameActor& a) {
      for (const auto& [conn, viewer] : players) a.subscribe(conn, viewer, GameActor::Greeting::Started, 0);
    });
  }
  leave_pools(cfg);
}

// Players whose game starts give up their open seeks, as on lichess (review, 2026-12-04: a player
// paired from a pool still had a seek, which another accepted: two live games at once). Those held
// here go at once (an accept here took them out of the lobby with the seek it took); those of other
// nodes (a player with a page on each, a pool game created anywhere) are marked void in Redis, so
// that accept_seek refuses them there, and leave the shared list; their node drops them at its
// next sweep (sweep_dead_nodes_seeks).
void Hub::close_open_seeks(const GameConfig& cfg) {
  std::vector<std::string> gone;
  {
    std::lock_guard l(mu_);
    for (const auto* p : {&cfg.red, &cfg.black})
      if (!p->bot)  // a computer player plays many games at once: its seeks stay
        for (std::string& id : lobby_.remove_open_seeks_of(p->user_id)) gone.push_back(std::move(id));
  }
  const auto closes = [&](const std::string& owner) {
    return (owner == cfg.red.user_id && !cfg.red.bot) || (owner == cfg.black.user_id && !cfg.black.bot);
  };
  try {
    for (const SeekEntry& s : all_seeks())
      if (s.target_user_id.empty() && closes(s.owner.id) && std::find(gone.begin(), gone.end(), s.id) == gone.end()) {
        redis_.command({"SET", keys::superseded_seek(s.id), cfg.id, "PX", "60000"});
        gone.push_back(s.id);
      }
    if (gone.empty()) return;
    unstore_seeks(gone);
  } catch (const std::exception& e) {
    std::cerr << "gameserver: game " << cfg.id << " started, its players' seeks still open: " << e.what() << '\n';
  }
  publish_seeks_changed();
}

// Players whose game starts leave every quick-pairing pool, or a pool would pair them into a
// second game at once (review 2026-12-04: a seek accepted while its maker waited in a pool).
void Hub::leave_pools(const GameConfig& cfg) {
  try {
    for (const auto& pool : redis_.command({"SMEMBERS", xq::bus::kPools}).elements)
      redis_.command({"HDEL", xq::bus::pool(pool.str), cfg.red.user_id, cfg.black.user_id});
  } catch (const std::exception& e) {
    std::cerr << "gameserver: game " << cfg.id << " started, its players still in a pool: " << e.what() << '\n';
  }
}

// A game no longer (or not) in memory: a finished one is rebuilt from its stored events and sent
// as a full state; a live one hosted elsewhere is unknown here.
void Hub::send_stored_game(const std::shared_ptr<Connection>& c, const User& u, const std::string& gid, uint64_t rid) {
  std::optional<GameSession> s;
  try {
    if (redis_.command({"EXISTS", keys::game_meta(gid)}).integer == 1) s.emplace(store_.load(gid));
  } catch (const RedisError&) {
    throw;
  } catch (const std::exception& e) {
    std::cerr << "load " << gid << ": " << e.what() << '\n';
  }
  if (!s && redis_.command({"EXISTS", keys::archive(gid)}).integer == 1)  // its replay has expired
    return send_error(*c, rid, v1::UNKNOWN_GAME, "the game is over: its record is at GET /api/games/" + gid, metrics_, gid);
  if (!s || !s->over()) return send_error(*c, rid, v1::UNKNOWN_GAME, "no such game here", metrics_, gid);
  v1::ServerMessage m;
  m.set_request_id(rid);
  *m.mutable_game_state() = state_for(*s, viewer_for(s->config(), u.id), steady_ms(), wall_ms());
  send_message(*c, m, metrics_);
  v1::ServerMessage r;
  r.set_request_id(rid);
  r.mutable_reply()->set_game_id(gid);
  r.mutable_reply()->set_version(s->version());
  send_message(*c, r, metrics_);
}

}  // namespace gs
