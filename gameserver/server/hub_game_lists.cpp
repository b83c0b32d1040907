// The Hub's lists and records of games: this node's from memory, the other nodes' from Redis
// (cached briefly), for list_games, the HTTP API and the admin page.
#include "server/hub.h"

#include <boost/json.hpp>
#include <algorithm>
#include <map>
#include <optional>
#include <utility>

#include "game/codec.h"
#include "server/views.h"
#include "store/keys.h"

namespace json = boost::json;

namespace gs {
namespace v1 = xq::v1;

bool Hub::record_withheld(const std::string& id) {
  if (auto a = find_game(id)) return !a->finished() && a->config().spectator_delay_ms > 0;
  try {  // a live game of another node
    if (store_.is_live(id)) return store_.load(id).config().spectator_delay_ms > 0;
  } catch (const std::exception&) {
  }
  return false;
}

std::optional<std::string> Hub::game_record(const std::string& id) {
  if (auto a = find_game(id)) {
    std::string rec = a->record_json();
    if (!rec.empty()) return rec;
  }
  if (auto rec = store_.archived(id)) return rec;
  try {  // a live game of another node: rebuilt from Redis (spectator view, no secret)
    if (store_.is_live(id)) return archive_record(store_.load(id));
  } catch (const RedisError&) {
    throw;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

bool Hub::plays_live_game(const std::string& user_id) {
  const auto plays = [&](const GameConfig& g) { return g.red.user_id == user_id || g.black.user_id == user_id; };
  {
    std::lock_guard l(mu_);
    for (const auto& [id, a] : games_)
      if (!a->finished() && !a->lost() && plays(a->config())) return true;
  }
  if (const auto others = other_nodes_games_cached())
    for (const auto& [id, g] : *others)
      if (!g.finished && plays(g.config)) return true;
  return false;
}

std::shared_ptr<const std::map<std::string, Hub::GameInfo>> Hub::other_nodes_games_cached() {
  std::lock_guard l(others_mu_);
  if (steady_ms() - others_read_ms_ >= kGameListCacheMs) {
    try {
      others_cache_ = std::make_shared<const std::map<std::string, GameInfo>>(other_nodes_games());
      others_read_ms_ = steady_ms();
    } catch (const RedisError&) {  // Redis away: the last list read
    }
  }
  return others_cache_;
}

std::map<std::string, Hub::GameInfo> Hub::other_nodes_games() {
  std::map<std::string, GameInfo> out;
  std::vector<std::string> others;
  for (auto& id : store_.live_game_ids())
    if (!find_game(id)) others.push_back(std::move(id));
  for (size_t at = 0; at < others.size(); at += 200) {
    std::vector<std::string> metas{"MGET"}, snaps{"MGET"};
    for (size_t i = at; i < std::min(others.size(), at + 200); ++i) {
      metas.push_back(keys::game_meta(others[i]));
      snaps.push_back(keys::game_snap(others[i]));
    }
    auto mr = redis_.command(metas), sr = redis_.command(snaps);
    for (size_t i = 0; i < mr.elements.size(); ++i) {
      if (mr.elements[i].type != RedisReply::Type::String) continue;
      try {
        GameInfo info{decode_config(mr.elements[i].str), 0, false, 0, 0, ""};
        info.red_ms = info.black_ms = info.config.tc.initial_ms;
        if (i < sr.elements.size() && sr.elements[i].type == RedisReply::Type::String) {
          auto snap = json::parse(sr.elements[i].str).as_object();
          if (auto* p = snap.if_contains("plies"); p && p->is_number()) info.plies = p->to_number<uint32_t>();
          if (auto* p = snap.if_contains("red_ms"); p && p->is_number()) info.red_ms = p->to_number<int64_t>();
          if (auto* p = snap.if_contains("black_ms"); p && p->is_number()) info.black_ms = p->to_number<int64_t>();
          if (auto* p = snap.if_contains("spectators"); p && p->is_number()) info.spectators = p->to_number<uint32_t>();
        }
        out[others[at + i]] = std::move(info);
      } catch (const std::exception&) {
      }
    }
  }
  return out;
}

// Sorts light keys and copies only the games of the page: a lobby polls this every few seconds,
// and copying every game's config for each answer cost milliseconds at 10,000 games.
Hub::GamePage Hub::game_page(size_t offset, size_t limit, bool include_finished, bool public_view) {
  struct Key {
    int64_t created_at_ms;
    std::string id;
    std::shared_ptr<GameActor> local;  // else in `others`
  };
  std::vector<Key> keys;
  {
    std::lock_guard l(mu_);
    keys.reserve(games_.size());
    for (const auto& [id, a] : games_)
      if (include_finished || !a->finished()) keys.push_back({a->config().created_at_ms, id, a});
  }
  const auto others = other_nodes_games_cached();
  if (others) {
    std::set<std::string> here;  // a game taken over by this node: ours wins
    for (const auto& k : keys) here.insert(k.id);
    for (const auto& [id, info] : *others)
      if (!here.count(id) && (include_finished || !info.finished)) keys.push_back({info.config.created_at_ms, id, nullptr});
  }
  GamePage page;
  page.total = keys.size();
  const size_t from = std::min(offset, keys.size());
  const size_t to = from + std::min(limit, keys.size() - from);
  auto newest_first = [](const Key& a, const Key& b) {
    return a.created_at_ms != b.created_at_ms ? a.created_at_ms > b.created_at_ms : a.id < b.id;
  };
  std::partial_sort(keys.begin(), keys.begin() + static_cast<long>(to), keys.end(), newest_first);
  for (size_t i = from; i < to; ++i) {
    const Key& k = keys[i];
    if (k.local) {
      const GameActor::ClockNow clock = k.local->clock_now();
      page.games.emplace_back(k.id, GameInfo{k.local->config(), k.local->plies(), k.local->finished(), clock.red_ms, clock.black_ms,
                                             !clock.running ? "" : *clock.running == xq::Color::Red ? "red" : "black",
                                             k.local->spectators()});
    } else {
      page.games.emplace_back(k.id, others->at(k.id));
    }
    // A delayed broadcast shows the public nothing of its progress until it ends: not the
    // position (views.cpp), not the record (403), and not its ply count or clocks here.
    GameInfo& info = page.games.back().second;
    if (public_view && !info.finished && info.config.spectator_delay_ms > 0) {
      info.plies = 0;
      info.red_ms = info.black_ms = info.config.tc.initial_ms;
      info.running.clear();
    }
  }
  return page;
}

std::string Hub::live_games_json(size_t offset, size_t limit, bool for_admin) {
  json::array arr;
  const GamePage page = game_page(offset, limit, true, !for_admin);
  for (const auto& [id, info] : page.games) {
    const auto& c = info.config;
    arr.push_back(json::object{{"id", id},
                               {"variant", c.variant == xq::Variant::Jieqi ? "jieqi" : "xiangqi"},
                               {"red", c.red.name},
                               {"black", c.black.name},
                               {"plies", info.plies},
                               {"finished", info.finished},
                               {"red_ms", info.red_ms},
                               {"black_ms", info.black_ms},
                               {"running", info.running},
                               {"delayed", info.config.spectator_delay_ms > 0 && !info.finished},
                               {"spectators", info.spectators},
                               // Which event's round and board, or which pool, the game is from
                               // (arbiters look for "round 3, board 2"); "" / 0 for other games.
                               {"event_id", c.event_id},
                               {"round", c.round},
                               {"board", c.board},
                               {"pool", c.pool}});
  }
  return json::serialize(json::object{{"games", arr}, {"total", page.total}});
}

void Hub::list_games(const std::shared_ptr<Connection>& c, const v1::ClientMessage& m) {
  v1::ServerMessage r;
  r.set_request_id(m.request_id());
  r.mutable_games();
  const auto& q = m.list_games();
  const GamePage page = game_page(q.offset(), q.limit() == 0 ? kDefaultGameListLimit : std::min(q.limit(), kMaxGameListLimit), false, true);
  r.mutable_games()->set_total(static_cast<uint32_t>(page.total));
  for (const auto& [id, info] : page.games) {
    const GameConfig& cfg = info.config;
    auto* g = r.mutable_games()->add_games();
    g->set_game_id(id);
    g->set_variant(to_variant(cfg.variant));
    fill_player(g->mutable_red(), cfg.red);  // with guest and bot marks, as in game_started (review, 2026-12-04)
    fill_player(g->mutable_black(), cfg.black);
    g->set_plies(info.plies);
    g->mutable_time_control()->set_initial_ms(static_cast<uint32_t>(cfg.tc.initial_ms));
    g->mutable_time_control()->set_increment_ms(static_cast<uint32_t>(cfg.tc.increment_ms));
    g->set_spectators(info.spectators);
  }
  send_message(*c, r, metrics_);
}

}  // namespace gs
