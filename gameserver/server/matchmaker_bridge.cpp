#include "server/matchmaker_bridge.h"

#include <algorithm>
#include <hiredis/hiredis.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <boost/json.hpp>
#include <chrono>
#include <iostream>

#include "server/hub.h"
#include "store/keys.h"
#include "store/matchmaker_bus.h"
#include "store/redis_endpoint.h"
#include "store/redis.h"

namespace json = boost::json;

namespace gs {

namespace {

// A request for a game of an event the organiser cancelled while it waited in the stream.
bool event_cancelled(Redis& redis, const std::string& spec_json) {
  boost::system::error_code ec;
  const json::value spec = json::parse(spec_json, ec);
  if (ec || !spec.is_object()) return false;  // create_scheduled_game says what is wrong with it
  const auto* event_id = spec.as_object().if_contains("event_id");
  if (!event_id || !event_id->is_string() || event_id->as_string().empty()) return false;
  return redis.command({"EXISTS", xq::bus::event(std::string(event_id->as_string())) + ":cancelled"}).integer == 1;
}

}  // namespace

MatchmakerBridge::MatchmakerBridge(Hub& hub, std::string redis_url, std::string node_id)
    : hub_(hub), redis_url_(std::move(redis_url)), node_id_(std::move(node_id)) {}

MatchmakerBridge::~MatchmakerBridge() { stop(); }

void MatchmakerBridge::start() {
  requests_ = std::thread([this] { consume_game_requests(); });
  notices_ = std::thread([this] { forward_notices(); });
}

void MatchmakerBridge::stop() {
  stop_ = true;
  if (int fd = notice_fd_.load(); fd >= 0) ::shutdown(fd, SHUT_RDWR);  // wakes the blocked subscriber
  if (requests_.joinable()) requests_.join();
  if (notices_.joinable()) notices_.join();
}

void MatchmakerBridge::consume_game_requests() {
  std::unique_ptr<Redis> redis;
  bool group_ready = false;
  while (!stop_) {
    try {
      if (!redis) redis = std::make_unique<Redis>(redis_url_);
      if (!group_ready) {
        try {
          redis->command({"XGROUP", "CREATE", xq::bus::kGameCreate, xq::bus::kGameserverGroup, "0", "MKSTREAM"});
        } catch (const RedisError& e) {
          if (std::string(e.what()).find("BUSYGROUP") == std::string::npos) throw;
        }
        group_ready = true;
      }
      // Entries another node took and never acknowledged (it died between read and ack) become
      // ours after 15 s; creating a game is idempotent, so a slow node finishing too is harmless.
      redis->command({"XAUTOCLAIM", xq::bus::kGameCreate, xq::bus::kGameserverGroup, node_id_, "15000", "0-0", "COUNT", "50"});
      // Our own unacknowledged entries first (a crash between create and ack), then new ones.
      for (const char* from : {"0", ">"}) {
        std::vector<std::string> cmd{"XREADGROUP", "GROUP", xq::bus::kGameserverGroup, node_id_, "COUNT", "50"};
        if (std::string(from) == ">") cmd.insert(cmd.end(), {"BLOCK", "1000"});
        cmd.insert(cmd.end(), {"STREAMS", xq::bus::kGameCreate, from});
        RedisReply r = redis->command(cmd);
        for (const auto& stream : r.elements) {
          if (stream.elements.size() < 2) continue;
          for (const auto& entry : stream.elements[1].elements) {
            if (entry.elements.size() < 2) continue;
            std::string body, game_id;
            const auto& kv = entry.elements[1].elements;
            for (size_t i = 0; i + 1 < kv.size(); i += 2) {
              if (kv[i].str == "body") body = kv[i + 1].str;
              else if (kv[i].str == "game_id") game_id = kv[i + 1].str;
            }
            try {
              if (event_cancelled(*redis, body)) {
                std::cerr << "gameserver: not creating game " << game_id << ": its event was cancelled\n";
              } else {
                hub_.create_scheduled_game(body);
              }
            } catch (const RedisError&) {
              throw;  // not acknowledged: retried when Redis is back
            } catch (const std::exception& e) {
              std::cerr << "gameserver: dropping bad game request " << entry.elements[0].str << ": " << e.what() << '\n';
            }
            redis->command({"XACK", xq::bus::kGameCreate, xq::bus::kGameserverGroup, entry.elements[0].str});
          }
        }
      }
    } catch (const std::exception& e) {
      std::cerr << "gameserver: matchmaker requests: " << e.what() << "; retrying\n";
      redis.reset();
      group_ready = false;
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
    }
  }
}

void MatchmakerBridge::forward_notices() {
  const RedisEndpoint endpoint = parse_redis_url(redis_url_);
  while (!stop_) {
    redisContext* ctx = nullptr;
    try {
      ctx = connect_redis(endpoint, timeval{1, 0});
    } catch (const RedisError&) {
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
      continue;
    }
    // Blocking reads without a timeout (hiredis cannot resume a reply after one); stop() shuts the
    // socket down to end the read.
    timeval no_timeout{0, 0};
    redisSetTimeout(ctx, no_timeout);
    // A Redis host that vanishes without closing the connection (power loss, partition) would
    // leave this read blocked for good: TCP keepalive probes (hiredis: every 15 s) end it.
    redisEnableKeepAlive(ctx);
    notice_fd_ = ctx->fd;
    if (stop_) ::shutdown(ctx->fd, SHUT_RDWR);
    if (auto* r = static_cast<redisReply*>(redisCommand(ctx, "SUBSCRIBE %s", xq::bus::kNotify.c_str()))) freeReplyObject(r);
    while (!stop_) {
      void* raw = nullptr;
      if (redisGetReply(ctx, &raw) != REDIS_OK) break;
      auto* reply = static_cast<redisReply*>(raw);
      if (reply && reply->type == REDIS_REPLY_ARRAY && reply->elements == 3 && reply->element[2]->type == REDIS_REPLY_STRING) {
        try {
          auto v = json::parse(std::string(reply->element[2]->str, reply->element[2]->len)).as_object();
          auto get = [&](const char* k) {
            auto* p = v.if_contains(k);
            return p && p->is_string() ? std::string(p->as_string()) : std::string();
          };
          std::string kind = get("kind"), event_id = get("event_id");
          std::vector<std::string> users;
          if (kind != "game_ready" && !event_id.empty()) {
            // Event news goes to the event's players and its organiser (whose page would otherwise
            // learn of it at its next poll); their ids are in the stored event.
            RedisReply ev = hub_.redis().command({"GET", xq::bus::event(event_id)});
            if (ev.type == RedisReply::Type::String) {
              json::value stored = json::parse(ev.str);  // keep it alive while iterating
              for (const auto& u : stored.as_object().at("user_ids").as_array()) users.emplace_back(u.as_string());
              boost::system::error_code none;
              const json::value* organiser = stored.find_pointer("/config/organiser", none);
              if (organiser && organiser->is_string() && !organiser->as_string().empty() &&
                  std::find(users.begin(), users.end(), organiser->as_string()) == users.end())
                users.emplace_back(organiser->as_string());
            }
          }
          // game_ready is sent by the node that creates the game (it knows the game exists).
          std::vector<std::pair<std::string, std::string>> params;
          if (auto* ps = v.if_contains("params"); ps && ps->is_object())
            for (const auto& [name, value] : ps->as_object())
              if (value.is_string()) params.emplace_back(name, std::string(value.as_string()));
          if (!users.empty()) hub_.push_notice(users, kind, event_id, get("game_id"), get("text"), get("code"), params);
        } catch (const std::exception& e) {
          std::cerr << "gameserver: bad notice: " << e.what() << '\n';
        }
      }
      if (reply) freeReplyObject(reply);
    }
    notice_fd_ = -1;
    redisFree(ctx);
    if (!stop_) std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
}

}  // namespace gs
