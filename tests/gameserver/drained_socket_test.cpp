// net/drained_socket.h marks a descriptor "exhausted" after a short read, so Asio waits for the
// next epoll edge instead of trying another read at once. These tests check that no byte is ever
// left waiting behind that mark: full reads with more data queued, short reads followed at once
// by new data, two threads on one io_context, and a WebSocket's close handshake through the
// socket's teardown overloads. A stall shows up as an io_context that runs out of its safety
// deadline with bytes missing.
#include "net/drained_socket.h"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <array>
#include <chrono>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

namespace {

using Executor = asio::io_context::executor_type;
using Drained = xqnet::DrainedSocket<Executor>;

// A connected pair on loopback: `drained` on the io_context under test, `plain` blocking.
struct Pair {
  asio::io_context ioc{2};
  asio::io_context blocking_ctx;
  Drained drained{ioc.get_executor()};
  tcp::socket plain{blocking_ctx};

  Pair() {
    tcp::acceptor acc(blocking_ctx, tcp::endpoint(asio::ip::address_v4::loopback(), 0));
    plain.connect(acc.local_endpoint());
    tcp::socket accepted = acc.accept();
    drained.assign(tcp::v4(), accepted.release());
  }
};

std::string pattern(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::string s(n, '\0');
  for (auto& c : s) c = static_cast<char>(rng());
  return s;
}

// Reads into a 4 KiB buffer until `want` bytes arrived or the peer closed.
struct Reader {
  Drained& socket;
  size_t want;
  std::string got;
  std::array<char, 4096> buf{};
  size_t reads = 0, short_reads = 0;

  void start() {
    socket.async_read_some(asio::buffer(buf), [this](beast::error_code ec, size_t n) {
      got.append(buf.data(), n);
      ++reads;
      if (n < buf.size()) ++short_reads;
      if (!ec && got.size() < want) start();
    });
  }
};

TEST(DrainedSocket, EveryByteArrivesInOrderWhateverTheChunking) {
  Pair p;
  const std::string data = pattern(3'000'000, 7);
  Reader r{p.drained, data.size()};
  r.start();
  std::thread writer([&] {
    std::mt19937 rng(11);
    size_t off = 0;
    while (off < data.size()) {
      // Chunks below and above the reader's 4 KiB, sometimes with a pause so the reader drains
      // the queue (a short read) before the next chunk lands.
      const size_t n = std::min<size_t>(data.size() - off, 1 + rng() % 12'000);
      asio::write(p.plain, asio::buffer(data.data() + off, n));
      off += n;
      if (rng() % 8 == 0) std::this_thread::sleep_for(std::chrono::microseconds(rng() % 300));
    }
  });
  std::thread second([&] { p.ioc.run_for(std::chrono::seconds(30)); });
  p.ioc.run_for(std::chrono::seconds(30));
  second.join();
  writer.join();
  ASSERT_EQ(r.got.size(), data.size());
  EXPECT_TRUE(r.got == data);
  // Both kinds of read happened, so both paths (exhausted and not) were taken.
  EXPECT_GT(r.short_reads, 0u);
  EXPECT_GT(r.reads - r.short_reads, 0u);
}

// The peer sends the next message only after our answer, the pattern of a game: every read is
// short, and the next bytes come after the descriptor was marked exhausted.
TEST(DrainedSocket, PingPongNeverStallsAfterAShortRead) {
  Pair p;
  constexpr int kRounds = 3000;
  int answered = 0;
  std::array<char, 256> buf{};
  std::function<void()> read_one = [&] {
    p.drained.async_read_some(asio::buffer(buf), [&](beast::error_code ec, size_t n) {
      if (ec) return;
      ASSERT_EQ(n, 5u);
      asio::async_write(p.drained, asio::buffer("pong!", 5), [&](beast::error_code wec, size_t) {
        if (wec) return;
        if (++answered < kRounds) read_one();
      });
    });
  };
  read_one();
  std::thread peer([&] {
    std::array<char, 5> in{};
    for (int i = 0; i < kRounds; ++i) {
      asio::write(p.plain, asio::buffer("ping!", 5));
      asio::read(p.plain, asio::buffer(in));
    }
  });
  std::thread second([&] { p.ioc.run_for(std::chrono::seconds(30)); });
  p.ioc.run_for(std::chrono::seconds(30));
  second.join();
  peer.join();
  EXPECT_EQ(answered, kRounds);
}

// Beast's WebSocket stream on a DrainedSocket: messages both ways, and the close handshake goes
// through the socket's teardown overloads.
TEST(DrainedSocket, CarriesAWebSocketThroughItsCloseHandshake) {
  asio::io_context ioc;
  tcp::acceptor acc(ioc, tcp::endpoint(asio::ip::address_v4::loopback(), 0));
  using Strand = asio::strand<Executor>;
  websocket::stream<xqnet::DrainedSocket<Strand>> server(asio::make_strand(ioc.get_executor()));
  websocket::stream<tcp::socket> client(ioc);
  beast::flat_buffer server_buf, client_buf;
  std::vector<std::string> server_got, client_got;
  beast::error_code server_end;
  bool client_closed = false;

  std::function<void()> server_read = [&] {
    server.async_read(server_buf, [&](beast::error_code ec, size_t) {
      if (ec) {
        server_end = ec;
        return;
      }
      server_got.push_back(beast::buffers_to_string(server_buf.data()));
      server_buf.consume(server_buf.size());
      server.async_write(asio::buffer(server_got.back() + " back"), [&](beast::error_code wec, size_t) {
        if (!wec) server_read();
      });
    });
  };
  acc.async_accept([&](beast::error_code ec, tcp::socket s) {
    ASSERT_FALSE(ec);
    server.next_layer().assign(tcp::v4(), s.release());
    server.async_accept([&](beast::error_code aec) {
      ASSERT_FALSE(aec);
      server_read();
    });
  });
  std::function<void(int)> client_talk = [&](int i) {
    if (i == 3) {
      client.async_close(websocket::close_code::normal, [&](beast::error_code cec) {
        EXPECT_FALSE(cec);
        client_closed = true;
      });
      return;
    }
    client.async_write(asio::buffer("message " + std::to_string(i)), [&, i](beast::error_code ec, size_t) {
      ASSERT_FALSE(ec);
      client.async_read(client_buf, [&, i](beast::error_code rec, size_t) {
        ASSERT_FALSE(rec);
        client_got.push_back(beast::buffers_to_string(client_buf.data()));
        client_buf.consume(client_buf.size());
        client_talk(i + 1);
      });
    });
  };
  client.next_layer().async_connect(acc.local_endpoint(), [&](beast::error_code ec) {
    ASSERT_FALSE(ec);
    client.async_handshake("localhost", "/", [&](beast::error_code hec) {
      ASSERT_FALSE(hec);
      client_talk(0);
    });
  });
  ioc.run_for(std::chrono::seconds(30));

  EXPECT_EQ(server_got, (std::vector<std::string>{"message 0", "message 1", "message 2"}));
  EXPECT_EQ(client_got, (std::vector<std::string>{"message 0 back", "message 1 back", "message 2 back"}));
  EXPECT_TRUE(client_closed);
  EXPECT_EQ(server_end, websocket::error::closed);
  EXPECT_FALSE(server.next_layer().is_open());  // the teardown closed the server's socket
}

}  // namespace
