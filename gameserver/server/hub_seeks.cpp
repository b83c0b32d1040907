// The Hub's lobby: seeks and challenges (kept in Redis, visible from every node), accepting one
// (which starts a game) and the paced pushes of the seek list.
#include "server/hub.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <optional>
#include <thread>
#include <utility>

#include "game/clock.h"
#include "game/one_line_text.h"
#include "net/client_address.h"
#include "rules/jieqi.h"
#include "server/views.h"
#include "store/keys.h"
#include "store/lua_script.h"
#include "store/rating_store.h"

namespace gs {
namespace v1 = xq::v1;

static void fill_seek(v1::Seek* p, const SeekEntry& s, bool owner_bot) {
  p->set_seek_id(s.id);
  p->mutable_owner()->set_user_id(s.owner.id);
  p->mutable_owner()->set_name(s.owner.name);
  p->mutable_owner()->set_guest(s.owner.guest);
  p->mutable_owner()->set_bot(owner_bot);
  p->mutable_owner()->set_rating(s.owner_rating);
  p->set_variant(to_variant(s.spec.variant));
  p->mutable_time_control()->set_initial_ms(static_cast<uint32_t>(s.spec.tc.initial_ms));
  p->mutable_time_control()->set_increment_ms(static_cast<uint32_t>(s.spec.tc.increment_ms));
  p->set_color(s.spec.color ? to_side(*s.spec.color) : v1::SIDE_NONE);
  p->set_ruleset(s.spec.ruleset);
  p->set_capture_visibility(s.spec.capture_visibility);
  if (s.spec.options != RuleOptions{}) fill_rule_options(p->mutable_rule_options(), s.spec.options);
  p->set_rated(s.spec.rated);
  p->set_rating_min(static_cast<uint32_t>(s.spec.rating_min));
  p->set_rating_max(static_cast<uint32_t>(s.spec.rating_max));
  p->set_target_user_id(s.target_user_id);
}

// list_seeks: the seek list for this user, now; from then on the connection gets the pushed changes.
void Hub::list_seeks(const std::shared_ptr<Connection>& c, const User& u, uint64_t rid) {
  {
    std::lock_guard l(mu_);
    if (auto it = conns_.find(c->id()); it != conns_.end()) it->second.lobby_watcher = true;
  }
  v1::ServerMessage r;
  r.set_request_id(rid);
  auto* list = r.mutable_seeks();
  const std::vector<SeekEntry> seeks = all_seeks();
  std::vector<bool> shown;
  list->set_total(static_cast<uint32_t>(listed_seeks(seeks, u.id, kMaxListedSeeks, shown)));
  for (size_t i = 0; i < seeks.size(); ++i)
    if (shown[i]) fill_seek(list->add_seeks(), seeks[i], bot_ids_.contains(seeks[i].owner.id));
  send_message(*c, r, metrics_);
}

static bool parse_spec(const v1::TimeControl& tc, v1::Variant var, v1::Side color, const std::string& ruleset,
                       const std::string& visibility, const v1::RuleOptions& options, SeekSpec& out,
                       std::string& why) {
  xq::CaptureVisibility vis;
  if (!visibility.empty() && !xq::parse_visibility(visibility, vis)) {
    why = "capture_visibility: capturer | nobody | both";
    return false;
  }
  out.capture_visibility = visibility.empty() ? "capturer" : visibility;
  if (const char* bad = time_control_error({tc.initial_ms(), tc.increment_ms()})) {
    why = bad;
    return false;
  }
  if (!v1::Variant_IsValid(var)) {  // proto3 keeps an unknown enum number: refused, not read as Xiangqi
    why = "variant: XIANGQI or JIEQI";
    return false;
  }
  if (!v1::Side_IsValid(color)) {
    why = "color: SIDE_NONE (random), RED or BLACK";
    return false;
  }
  if (!ruleset.empty() && !xq::parse_ruleset(ruleset)) {
    why = "unknown ruleset";
    return false;
  }
  out.variant = var == v1::JIEQI ? xq::Variant::Jieqi : xq::Variant::Xiangqi;
  // Xiangqi has no face-down pieces: only the default (which every game's state names) means
  // nothing there; another mode asked for is a mistake, not an option to list with the seek.
  if (out.variant == xq::Variant::Xiangqi && out.capture_visibility != "capturer") {
    why = "capture_visibility is a Jieqi rule";
    return false;
  }
  out.options = rule_options_from(options);
  if (why = rule_options_error(out.options, out.variant); !why.empty()) return false;
  out.tc = {tc.initial_ms(), tc.increment_ms()};
  if (color == v1::RED) out.color = xq::Color::Red;
  else if (color == v1::BLACK) out.color = xq::Color::Black;
  out.ruleset = ruleset.empty() ? "cxa" : ruleset;
  return true;
}

// A seek made or cancelled here: the answer names it, and every node's lobby watchers hear of it.
void Hub::seek_changed(Connection& c, uint64_t rid, const std::string& id) {
  v1::ServerMessage r;
  r.set_request_id(rid);
  r.mutable_reply()->set_seek_id(id);
  send_message(c, r, metrics_);
  publish_seeks_changed();
}

// The id of the user signed in under this name on any node, or "". An account's name matches
// without regard to case, as at login; a guest's only exactly (guests "Li" and "li" are two people).
std::string Hub::online_user_id(const std::string& name) {
  const auto find = [this](const std::string& wanted) -> std::string {
    {
      std::lock_guard l(mu_);
      for (const auto& [id, ci] : conns_)
        if (auto cc = ci.conn.lock(); cc && cc->user() && cc->user()->name == wanted) return cc->user()->id;
    }
    return presence_.find(wanted).value_or("");  // connected to another node?
  };
  if (std::string id = find(name); !id.empty()) return id;
  if (auto account = auth_.find_user(name); account && account->name != name) return find(account->name);
  return "";
}

void Hub::create_seek(const std::shared_ptr<Connection>& c, const User& u, const v1::ClientMessage& m) {
  const uint64_t rid = m.request_id();
  SeekSpec spec;
  std::string why, target_id;
  bool ok = m.has_create_seek()
                ? parse_spec(m.create_seek().time_control(), m.create_seek().variant(), m.create_seek().color(),
                             m.create_seek().ruleset(), m.create_seek().capture_visibility(),
                             m.create_seek().rule_options(), spec, why)
                : parse_spec(m.challenge().time_control(), m.challenge().variant(), m.challenge().color(),
                             m.challenge().ruleset(), m.challenge().capture_visibility(), m.challenge().rule_options(),
                             spec, why);
  if (!ok) return send_error(*c, rid, v1::BAD_REQUEST, why, metrics_);
  if (m.has_create_seek()) {
    spec.rated = m.create_seek().rated();
    spec.rating_min = static_cast<int>(std::min<uint32_t>(m.create_seek().rating_min(), 4000));
    spec.rating_max = static_cast<int>(std::min<uint32_t>(m.create_seek().rating_max(), 4000));
    if (spec.rating_min && spec.rating_max && spec.rating_min > spec.rating_max)
      return send_error(*c, rid, v1::BAD_REQUEST, "rating range: min above max", metrics_);
  } else {
    spec.rated = m.challenge().rated();
  }
  if (spec.rated && u.guest)
    return send_error(*c, rid, v1::BAD_REQUEST, "rated games need an account: register or log in", metrics_);
  if (m.has_challenge()) {
    // The target must be online; the challenge is a seek only they can see and accept.
    // Echoed in the answer below, so a name no player could have (control characters, a line
    // break, text turned around) is refused without it.
    const std::string& name = m.challenge().user_name();
    // (A guest of 20 Chinese characters with its suffix has 71 bytes: 128 bounds any name.)
    if (name.empty() || name.size() > 128 || !one_line_text(name))
      return send_error(*c, rid, v1::BAD_REQUEST, "user_name: not a player's name", metrics_);
    target_id = online_user_id(name);
    if (target_id == u.id) return send_error(*c, rid, v1::BAD_REQUEST, "you cannot challenge yourself", metrics_);
    if (target_id.empty())
      return send_error(*c, rid, v1::USER_NOT_ONLINE, m.challenge().user_name() + " is not online: a challenge reaches only a signed-in player",
                        metrics_);
  }
  if (spec.rated && target_id.rfind("g-", 0) == 0)  // it could never be accepted
    return send_error(*c, rid, v1::BAD_REQUEST, "rated games need an account: " + m.challenge().user_name() + " is a guest", metrics_);
  // Shown with the seek, so a player sees whom they would meet (the rating as of now; guests have none).
  const int owner_rating =
      u.guest ? 0 : static_cast<int>(std::lround(RatingStore(redis_).get(variant_name(spec.variant), u.id).rating));
  // The limits are per user and per client address: seeks held through other nodes count too.
  const std::string block = options_.max_seeks_per_address ? limited_block(c->client_address()) : "";
  const std::vector<SeekEntry> stored = all_seeks();
  std::string id, refusal;
  {
    std::lock_guard l(mu_);
    size_t elsewhere = 0, from_block_elsewhere = 0;
    for (const SeekEntry& s : stored) {
      if (lobby_.find(s.id)) continue;
      elsewhere += s.owner.id == u.id;
      from_block_elsewhere += !block.empty() && s.owner_block == block;
    }
    // Closed while this ran on the lobby pool: its seeks went with it (on_close), so must this one.
    if (!conns_.count(c->id())) return;
    if (lobby_.owned_by(u.id) + elsewhere >= options_.max_seeks_per_user)
      refusal = "too many open seeks (at most " + std::to_string(options_.max_seeks_per_user) + ")";
    else if (!block.empty() && lobby_.made_from(block) + from_block_elsewhere >= options_.max_seeks_per_address)
      refusal = "too many open seeks from your address (at most " + std::to_string(options_.max_seeks_per_address) + ")";
    else
      id = lobby_.add(u, spec, target_id, owner_rating, block);
  }
  if (id.empty()) return send_error(*c, rid, v1::BAD_REQUEST, refusal, metrics_);
  try {
    store_seek(id);  // listed on every node
  } catch (...) {
    std::lock_guard l(mu_);
    lobby_.cancel(id, u.id);
    throw;
  }
  seek_changed(*c, rid, id);
}

void Hub::cancel_seek(const std::shared_ptr<Connection>& c, const User& u, const v1::ClientMessage& m, int hops) {
  const uint64_t rid = m.request_id();
  const std::string& id = m.cancel_seek().seek_id();
  bool ok;
  {
    std::lock_guard l(mu_);
    ok = lobby_.cancel(id, u.id);
  }
  if (!ok) {
    // Held by another node? It decides there.
    auto st = stored_seek(id);
    if (st && st->node != options_.node_id && hops < 2 && seek_visible_to(st->seek, u.id) && forward(c, u, st->node, m, hops + 1))
      return;
    return send_error(*c, rid, v1::UNKNOWN_SEEK, "no such seek of yours", metrics_);
  }
  unstore_seeks({id});
  seek_changed(*c, rid, id);
}

namespace {
constexpr const char* kVoidChallenge = "this challenge is void: a game between you two has just started from another one";
}  // namespace

void Hub::accept_seek(const std::shared_ptr<Connection>& c, const User& u, const v1::ClientMessage& m, int hops) {
  std::optional<SeekEntry> seek;
  // The two players' other open seeks leave this lobby in the same step: two accepts at once (the
  // lobby pool has two threads) each took one seek of a player and started two games for it
  // (review, 2026-12-04). They come back if no game starts; a computer player's come back anyway.
  std::vector<SeekEntry> held_back;
  {
    std::lock_guard l(mu_);
    seek = lobby_.take(m.accept_seek().seek_id(), u.id);
    if (seek)
      for (const std::string& who : {seek->owner.id, u.id})
        for (SeekEntry& e : lobby_.take_open_seeks_of(who)) held_back.push_back(std::move(e));
  }
  auto put_back = [&](bool bots_only) {
    std::vector<SeekEntry> back;
    for (const SeekEntry& e : held_back)
      if (!bots_only || auth_.is_bot(User{e.owner.id, e.owner.name, e.owner.guest})) back.push_back(e);
    std::lock_guard l(mu_);
    for (const SeekEntry& e : back) lobby_.restore(e);
  };
  if (!seek) {
    // A seek of another node: the accept goes there (that node creates and owns the game and
    // greets the taker through its proxy).
    auto st = stored_seek(m.accept_seek().seek_id());
    if (st && st->seek.owner.id == u.id)
      return send_error(*c, m.request_id(), v1::BAD_REQUEST, "this is your own seek: another player accepts it", metrics_);
    if (st && st->node != options_.node_id && hops < 2 && forward(c, u, st->node, m, hops + 1)) return;
  }
  if (!seek) {
    const bool void_now = redis_.command({"EXISTS", keys::superseded_seek(m.accept_seek().seek_id())}).integer == 1;
    return send_error(*c, m.request_id(), v1::UNKNOWN_SEEK,
                      void_now ? kVoidChallenge : "no such seek open to you", metrics_);
  }
  // An open seek whose maker's pool game started on another node (close_open_seeks): void.
  if (seek->target_user_id.empty() && redis_.command({"EXISTS", keys::superseded_seek(seek->id)}).integer == 1) {
    put_back(false);
    return send_error(*c, m.request_id(), v1::UNKNOWN_SEEK, "this seek is gone: its player is in a game now", metrics_);
  }
  std::string refusal;
  if (seek->spec.rated && u.guest) refusal = "rated games need an account: register or log in";
  if (refusal.empty() && seek->spec.rated && (seek->spec.rating_min || seek->spec.rating_max)) {
    int mine = static_cast<int>(std::lround(RatingStore(redis_).get(variant_name(seek->spec.variant), u.id).rating));
    if ((seek->spec.rating_min && mine < seek->spec.rating_min) || (seek->spec.rating_max && mine > seek->spec.rating_max))
      refusal = "your rating " + std::to_string(mine) + " is outside this seek's range";
  }
  if (!refusal.empty()) {
    put_back(false);
    {
      std::lock_guard l(mu_);
      lobby_.restore(*seek);
    }
    store_seek(seek->id);
    return send_error(*c, m.request_id(), v1::BAD_REQUEST, refusal, metrics_);
  }
  try {
    if (!seek->target_user_id.empty() && !supersede_other_challenges(*seek, u.id)) {
      put_back(false);
      unstore_seeks({seek->id});
      publish_seeks_changed();
      return send_error(*c, m.request_id(), v1::UNKNOWN_SEEK, kVoidChallenge, metrics_);
    }
    start_game(*seek, u, c, m.request_id());  // the others' withdrawal: close_open_seeks
    put_back(true);
  } catch (...) {
    put_back(false);
    {
      std::lock_guard l(mu_);  // the game could not be created: the seek stays open
      lobby_.restore(*seek);
    }
    try {
      store_seek(seek->id);
    } catch (...) {
    }
    throw;
  }
  std::vector<std::string> gone{seek->id};
  if (!seek->target_user_id.empty()) {
    std::lock_guard l(mu_);
    for (std::string& id : lobby_.remove_challenges_between(seek->owner.id, u.id)) gone.push_back(std::move(id));
  }
  try {
    unstore_seeks(gone);
  } catch (const std::exception&) {
  }
  publish_seeks_changed();
}

bool Hub::supersede_other_challenges(const SeekEntry& seek, const std::string& taker_id) {
  // Refused if this one was superseded already; else marks the others, in one atomic step.
  static constexpr const char* kSupersede = R"lua(
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
for i = 2, #KEYS do redis.call('SET', KEYS[i], ARGV[1], 'PX', ARGV[2]) end
return 1)lua";
  std::vector<std::string> marks{keys::superseded_seek(seek.id)};
  for (const SeekEntry& other : all_seeks())
    if (other.id != seek.id && challenge_between(other, seek.owner.id, taker_id))
      marks.push_back(keys::superseded_seek(other.id));
  return eval_script(redis_, kSupersede, std::move(marks), {seek.id, "60000"}).integer == 1;
}

void Hub::start_game(const SeekEntry& seek, const User& taker, const std::shared_ptr<Connection>& c, uint64_t rid) {
  GameConfig cfg;
  cfg.id = xq::random_hex(8);
  cfg.variant = seek.spec.variant;
  cfg.ruleset = seek.spec.ruleset;
  cfg.capture_visibility = seek.spec.capture_visibility;
  cfg.options = seek.spec.options;
  cfg.tc = seek.spec.tc;
  xq::Color owner_color = seek.spec.color ? *seek.spec.color
                                          : ((xq::random_hex(1)[1] & 1) ? xq::Color::Red : xq::Color::Black);
  PlayerInfo owner{seek.owner.id, seek.owner.name, seek.owner.guest}, other{taker.id, taker.name, taker.guest};
  cfg.red = owner_color == xq::Color::Red ? owner : other;
  cfg.black = owner_color == xq::Color::Red ? other : owner;
  cfg.rated = seek.spec.rated;
  fill_ratings(cfg);
  seal(cfg);
  GameSession session(cfg);
  store_.create(cfg);  // throws RedisError → STORAGE_UNAVAILABLE; nothing started
  launch(cfg, std::move(session));
  v1::ServerMessage r;
  r.set_request_id(rid);
  r.mutable_reply()->set_game_id(cfg.id);
  send_message(*c, r, metrics_);
}

std::vector<SeekEntry> Hub::all_seeks() {
  std::vector<SeekEntry> out;
  auto r = redis_.command({"HGETALL", keys::kSeeks});
  for (size_t i = 1; i < r.elements.size(); i += 2)
    if (auto st = decode_seek(r.elements[i].str)) out.push_back(std::move(st->seek));
  // In id order: a capped list (listed_seeks) then shows the same seeks to everyone, and on every node.
  std::sort(out.begin(), out.end(), [](const SeekEntry& a, const SeekEntry& b) { return a.id < b.id; });
  return out;
}

std::optional<StoredSeek> Hub::stored_seek(const std::string& id) {
  auto r = redis_.command({"HGET", keys::kSeeks, id});
  if (r.type != RedisReply::Type::String) return std::nullopt;
  return decode_seek(r.str);
}

void Hub::store_seek(const std::string& id) {
  std::optional<SeekEntry> s;
  {
    std::lock_guard l(mu_);
    s = lobby_.find(id);
  }
  if (!s) return;
  redis_.command({"HSET", keys::kSeeks, id, encode_seek(*s, options_.node_id)});
  // Its owner's last connection may have closed meanwhile (the request ran on the lobby pool):
  // on_close removed the seek here and from Redis, perhaps before this write. Then it goes again.
  bool gone;
  {
    std::lock_guard l(mu_);
    gone = !lobby_.find(id);
  }
  if (gone) redis_.command({"HDEL", keys::kSeeks, id});
}

void Hub::unstore_seeks(const std::vector<std::string>& ids) {
  if (ids.empty()) return;
  std::vector<std::string> cmd{"HDEL", keys::kSeeks};
  cmd.insert(cmd.end(), ids.begin(), ids.end());
  redis_.command(cmd);
}

void Hub::publish_seeks_changed() {
  NodeMessage nm;
  nm.kind = NodeMessage::Kind::Seeks;
  nm.from_node = options_.node_id;
  try {
    if (redis_.command({"PUBLISH", keys::kNodesChannel, encode(nm)}).integer > 0) return;  // we hear it too
  } catch (const std::exception&) {
  }
  request_seek_push();
}

void Hub::request_seek_push() {
  seek_push_strand_.post([this] {
    if (seek_push_scheduled_) return;  // the pending push will carry this change too
    seek_push_scheduled_ = true;
    const int64_t budget_ms = options_.seek_push_frames_per_s > 0
                                  ? static_cast<int64_t>(last_seek_push_frames_.load() * 1000 / options_.seek_push_frames_per_s)
                                  : 0;
    const int64_t at = std::max(steady_ms(), last_seek_push_ms_ + std::max(options_.seek_push_interval_ms, budget_ms));
    seek_push_strand_.set_timer(at, [this] {
      seek_push_scheduled_ = false;
      last_seek_push_ms_ = steady_ms();
      if (!seek_push_pool_.try_post([this] { push_seeks(); })) request_seek_push();  // later, then
    });
  });
}

void Hub::post_seek_push(std::set<std::string> users) {
  // Dropped when 1,024 pushes wait: these users get the next full push, or ask with list_seeks.
  seek_push_pool_.try_post([this, users = std::move(users)] { push_seeks(&users); });
}

// Seeks of nodes whose heartbeat stopped (crashed) leave the shared list; so do seeks a previous
// life of this node left behind.
void Hub::sweep_dead_nodes_seeks() {
  auto r = redis_.command({"HGETALL", keys::kSeeks});
  std::map<std::string, std::vector<std::string>> by_node;
  for (size_t i = 1; i < r.elements.size(); i += 2)
    if (auto st = decode_seek(r.elements[i].str)) by_node[st->node].push_back(st->seek.id);
  // Both ways, for this node's seeks, only when seen twice in a row (a seek is held here a moment
  // before it is stored, and an accept holds seeks out of the lobby while it starts the game):
  // one stored by this node but held no more (a previous life's) leaves the shared list; one held
  // here that another node took off the list (its player's game started there: close_open_seeks)
  // leaves this lobby.
  std::vector<std::string> dead;
  {
    const auto& listed = by_node[options_.node_id];
    const std::set<std::string> stored_here(listed.begin(), listed.end());
    std::set<std::string> missing_here, missing_there;
    std::lock_guard l(mu_);
    for (const std::string& id : stored_here)
      if (!lobby_.find(id)) {
        if (seeks_unheld_last_sweep_.count(id)) dead.push_back(id);
        else missing_here.insert(id);
      }
    for (const std::string& id : lobby_.ids())
      if (!stored_here.count(id)) {
        if (seeks_unstored_last_sweep_.count(id)) lobby_.remove(id);
        else missing_there.insert(id);
      }
    seeks_unheld_last_sweep_ = std::move(missing_here);
    seeks_unstored_last_sweep_ = std::move(missing_there);
  }
  for (auto& [node, ids] : by_node)
    if (node != options_.node_id && redis_.command({"EXISTS", keys::node_alive(node)}).integer == 0)
      dead.insert(dead.end(), ids.begin(), ids.end());
  if (dead.empty()) return;
  unstore_seeks(dead);
  publish_seeks_changed();
}

// Only to connections that show a lobby (ConnInfo::lobby_watcher) or whose user has an open
// challenge, and not while they play a live game here (with thousands of games, pushes to players
// would outnumber the moves); its players get the list when their game ends, and a client can
// always ask with list_seeks.
void Hub::push_seeks(const std::set<std::string>* only_users) {
  std::vector<std::pair<std::shared_ptr<Connection>, std::string>> out;
  std::vector<SeekEntry> seeks;
  try {
    seeks = all_seeks();
  } catch (const std::exception&) {
    std::lock_guard l(mu_);
    seeks = lobby_.visible_to("");  // Redis away: this node's open seeks
  }
  std::set<std::string> challenged;  // users with an open challenge to them
  std::set<std::string> involved;    // they and the seeks' owners: their lists put their seeks first
  for (const SeekEntry& s : seeks) {
    if (!s.target_user_id.empty()) challenged.insert(s.target_user_id), involved.insert(s.target_user_id);
    involved.insert(s.owner.id);
  }
  // A user whose challenge went (withdrawn, declined, taken up) gets this push too, the list
  // without it, though it shows no lobby (review, 2026-12-04: a page opened by link, or a bot,
  // still showed a challenge that stood no more).
  std::set<std::string> told = challenged;
  {
    std::lock_guard l(last_challenged_mu_);
    told.insert(last_challenged_.begin(), last_challenged_.end());
    if (!only_users) last_challenged_ = challenged;  // a push to a few users leaves the others to tell
  }
  // Every other user sees the same list (the public seeks): built and serialised once, so a push
  // to thousands of watchers does not select from all seeks for each of them.
  std::optional<std::string> public_list;
  std::map<std::vector<bool>, std::string> lists;  // the involved users' lists, each distinct one once
  std::vector<bool> visible;
  auto list_for = [&](const std::string& user_id) -> const std::string& {
    const size_t total = listed_seeks(seeks, user_id, kMaxListedSeeks, visible);
    auto it = lists.find(visible);
    if (it == lists.end()) {
      v1::ServerMessage m;
      m.mutable_seeks()->set_total(static_cast<uint32_t>(total));
      for (size_t i = 0; i < seeks.size(); ++i)
        if (visible[i]) fill_seek(m.mutable_seeks()->add_seeks(), seeks[i], bot_ids_.contains(seeks[i].owner.id));
      it = lists.emplace(visible, m.SerializeAsString()).first;
    }
    return it->second;
  };
  auto visit = [&](uint64_t id, const ConnInfo& ci) {  // with mu_ held
    if (is_proxy_id(id)) return;  // its own node pushes to it
    auto cc = ci.conn.lock();
    if (!cc) return;
    auto u = cc->user();
    if (!u || (only_users && !only_users->count(u->id))) return;
    if (!ci.lobby_watcher && !told.count(u->id)) return;
    if (playing_here(ci, u->id)) return;
    if (involved.count(u->id)) return out.emplace_back(cc, list_for(u->id)), void();
    if (!public_list) public_list = list_for("");  // no user id is empty: the public seeks
    out.emplace_back(cc, *public_list);
  };
  if (only_users) {
    std::lock_guard l(mu_);
    for (const auto& user : *only_users)
      if (auto uc = user_conns_.find(user); uc != user_conns_.end())
        for (uint64_t id : uc->second)
          if (auto it = conns_.find(id); it != conns_.end()) visit(it->first, it->second);
  } else {
    for_each_conn(visit);
    last_seek_push_frames_ = out.size();
  }
  // Paced: each send is a handler queued on the io threads ahead of the moves that arrive after
  // it, so thousands at once held every game up for the whole burst (docs/benchmarks.md, "Seek
  // pushes to lobby watchers"). This thread only pushes seeks; waiting here costs nothing else.
  constexpr size_t kSendsPerSlice = 100;
  for (size_t i = 0; i < out.size(); ++i) {
    if (i > 0 && i % kSendsPerSlice == 0) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    metrics_.frames_out_total++;
    out[i].first->send(std::move(out[i].second));
  }
}

bool Hub::playing_here(const ConnInfo& ci, const std::string& user_id) const {
  for (const auto& [gid, remote] : ci.remote_games)
    if (remote.playing) return true;
  for (const auto& gid : ci.games) {
    auto it = games_.find(gid);
    if (it == games_.end() || it->second->finished()) continue;
    const GameConfig& g = it->second->config();
    if (g.red.user_id == user_id || g.black.user_id == user_id) return true;
  }
  return false;
}

}  // namespace gs
