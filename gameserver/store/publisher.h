// One writer thread for PUBLISH between nodes (frames to another node's clients, requests
// forwarded to a game's owner): an io thread queues the message and goes on, where a blocking
// PUBLISH held it for a Redis round trip per frame. The thread writes everything queued meanwhile
// in one batch on its own connection and then reads the replies, so messages reach Redis in the
// order they were queued (a game's frames to a client stay in order).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "store/batch_thread.h"
#include "store/writer_connection.h"

namespace gs {


class Publisher {
 public:
  // Runs on the writer thread with the number of subscribers that got the message (0: nobody
  // listens, the node is gone) or -1 (Redis did not take it). Must be quick.
  using Done = std::function<void(long long receivers)>;

  explicit Publisher(Redis& redis);
  // Destroying it sends what is still queued, then stops (batches_ is destroyed first).
  Publisher(const Publisher&) = delete;
  Publisher& operator=(const Publisher&) = delete;

  void publish(std::string channel, std::string message, Done done = nullptr);

 private:
  struct Item {
    std::string channel, message;
    Done done;
  };
  void process(std::vector<Item>& batch);
  Redis& redis_;
  WriterConnection conn_;  // writer thread only
  BatchThread<Item> batches_;  // last: its thread starts once the rest exists
};

}  // namespace gs
