#pragma once
// A TCP stream socket whose reads skip the system call that only finds the queue empty.
//
// After every read that returns data, Asio 1.81 tries the next read at once ("speculatively")
// and, on a WebSocket where the peer waits for our answer, gets EAGAIN nearly every time: two
// recvmsg per frame where one carries data. Asio stops speculating on a descriptor when a read
// reports it "exhausted", but 1.81 says so only for a zero-byte read. A short read (fewer bytes
// than asked for) also proves that the kernel's receive queue was empty at that moment, and any
// data arriving later raises a new edge on the (edge-triggered) epoll registration, which
// re-enables speculation; so reporting a short read as exhausted loses nothing and saves the
// EAGAIN call (tests/gameserver/drained_socket_test.cpp; docs/benchmarks.md, "One read per frame").
//
// The hook is Asio's per-buffer-type receive operation: reads through DrainedSocket pass their
// buffer as DrainedReadBuffer, whose operation is specialised below. This touches
// asio::detail, so it is pinned to the Boost version it was written against.
#include <boost/asio/basic_stream_socket.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/detail/reactive_socket_recv_op.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/websocket/teardown.hpp>
#include <boost/version.hpp>
#include <utility>

#if BOOST_VERSION != 108100
#error "drained_socket.h specialises Asio internals of Boost 1.81; check reactive_socket_recv_op.hpp"
#endif
#if !defined(__linux__)
#error "drained_socket.h relies on Linux TCP and the epoll reactor"
#endif

namespace xqnet {

// One contiguous buffer, typed so that its receive operation is the one specialised below.
struct DrainedReadBuffer : boost::asio::mutable_buffer {
  explicit DrainedReadBuffer(boost::asio::mutable_buffer b) : boost::asio::mutable_buffer(b) {}
};

}  // namespace xqnet

namespace boost::asio::detail {

template <>
inline reactor_op::status reactive_socket_recv_op_base<xqnet::DrainedReadBuffer>::do_perform(reactor_op* base) {
  auto* o = static_cast<reactive_socket_recv_op_base*>(base);
  const bool is_stream = (o->state_ & socket_ops::stream_oriented) != 0;
  if (!socket_ops::non_blocking_recv1(o->socket_, o->buffers_.data(), o->buffers_.size(), o->flags_, is_stream,
                                      o->ec_, o->bytes_transferred_))
    return not_done;
  if (is_stream && !o->ec_ && o->bytes_transferred_ < o->buffers_.size()) return done_and_exhausted;
  return done;
}

}  // namespace boost::asio::detail

namespace xqnet {

// A basic_stream_socket (so Beast's teardown and get_lowest_layer apply unchanged) whose
// async_read_some reads into the first non-empty buffer of the sequence as a DrainedReadBuffer.
template <class Executor>
class DrainedSocket : public boost::asio::basic_stream_socket<boost::asio::ip::tcp, Executor> {
  using Base = boost::asio::basic_stream_socket<boost::asio::ip::tcp, Executor>;

 public:
  using Base::Base;
  explicit DrainedSocket(Base&& s) : Base(std::move(s)) {}

  template <class MutableBufferSequence, class ReadHandler>
  auto async_read_some(const MutableBufferSequence& buffers, ReadHandler&& handler) {
    boost::asio::mutable_buffer first;
    for (auto it = boost::asio::buffer_sequence_begin(buffers); it != boost::asio::buffer_sequence_end(buffers); ++it) {
      first = boost::asio::mutable_buffer(*it);
      if (first.size() != 0) break;
    }
    return Base::async_read_some(DrainedReadBuffer(first), std::forward<ReadHandler>(handler));
  }
};

// A WebSocket close tears the connection down as on the plain socket (found by argument-dependent
// lookup; Beast's generic overload would reject an unknown socket type).
template <class Executor>
void teardown(boost::beast::role_type role, DrainedSocket<Executor>& socket, boost::beast::error_code& ec) {
  boost::beast::websocket::teardown(role, static_cast<boost::asio::basic_stream_socket<boost::asio::ip::tcp, Executor>&>(socket), ec);
}

// After our close frame: reads and discards what the peer still sends until its FIN, then closes.
// Beast 1.81's own teardown stops after the first chunk it reads (its "bytes_transferred == 0" test
// looks at the coroutine's argument, not at the read), so a peer still sending (the rest of an
// oversized message) got a reset, and with it lost our close frame (1009 read as 1006). Bounded:
// past kTeardownDrainBytes the socket is closed anyway, and the connection's idle watch resets a
// peer that neither sends nor closes.
inline constexpr std::size_t kTeardownDrainBytes = 16u << 20;

template <class Socket, class Handler>
void drain_then_close(Socket& s, std::size_t budget, Handler handler) {
  s.async_wait(boost::asio::socket_base::wait_read,
               [&s, budget, handler = std::move(handler)](boost::beast::error_code ec) mutable {
                 std::size_t left = budget;
                 while (!ec) {
                   char chunk[16384];
                   const std::size_t n = s.read_some(boost::asio::buffer(chunk), ec);
                   if (ec == boost::asio::error::would_block) return drain_then_close(s, left, std::move(handler));
                   if (ec || n == 0 || n >= left) break;
                   left -= n;
                 }
                 if (ec == boost::asio::error::eof) ec = {};
                 boost::beast::error_code ignored;
                 s.close(ignored);
                 handler(ec);
               });
}

template <class Executor, class TeardownHandler>
void async_teardown(boost::beast::role_type role, DrainedSocket<Executor>& socket, TeardownHandler&& handler) {
  auto& s = static_cast<boost::asio::basic_stream_socket<boost::asio::ip::tcp, Executor>&>(socket);
  boost::beast::error_code ec;
  s.non_blocking(true, ec);
  if (!ec && role == boost::beast::role_type::server) s.shutdown(boost::asio::socket_base::shutdown_send, ec);
  if (ec) {  // not connected any more: nothing to drain (the handler must not run inside this call)
    boost::beast::error_code ignored;
    s.close(ignored);
    return boost::asio::post(s.get_executor(),
                             [handler = std::forward<TeardownHandler>(handler), ec]() mutable { handler(ec); });
  }
  drain_then_close(s, kTeardownDrainBytes, std::forward<TeardownHandler>(handler));
}

}  // namespace xqnet
