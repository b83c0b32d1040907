// xqbot: the computer opponent as a client of the game server (docs/bot.md).
//   xqbot --server ws://127.0.0.1:8080/ws --name xqbot --password-file var/xqbot-password
// The password comes from a file or the environment (XQBOT_PASSWORD), never from the command line.
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/program_options.hpp>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <iostream>

#include "bot_client.h"
#include "bot_options.h"

namespace po = boost::program_options;

int main(int argc, char** argv) {
  xqbot::BotOptions opt;
  std::string server = "ws://127.0.0.1:8080/ws", password_file, seeks = "xiangqi 600+5,jieqi 600+5";
  po::options_description desc("xqbot: plays Xiangqi and Jieqi on the game server");
  desc.add_options()("help,h", "this text")
      ("server", po::value(&server)->default_value(server), "the game server's WebSocket URL (ws://HOST:PORT/ws)")
      ("name", po::value(&opt.name)->default_value(opt.name), "the bot's account (registered on first use)")
      ("password-file", po::value(&password_file), "a file holding the account's password (else $XQBOT_PASSWORD)")
      ("user-id-file", po::value(&opt.user_id_file),
       "once signed in, write the account's user id here (to mark that very account as a computer player)")
      ("seek", po::value(&seeks)->default_value(seeks),
       "seeks kept open in the lobby: \"VARIANT SECONDS+INCREMENT\", comma-separated (\"\" = none, challenges only)")
      ("movetime-ms", po::value(&opt.movetime_ms)->default_value(opt.movetime_ms), "thinking time per move, at most")
      ("max-depth", po::value(&opt.max_depth)->default_value(opt.max_depth),
       "search at most this many plies deep (0 = as deep as the time allows): 1-3 make an easier opponent")
      ("max-games", po::value(&opt.max_games)->default_value(opt.max_games),
       "games at once; at the limit no seek is open and challenges are declined")
      ("max-seconds", po::value(&opt.max_seconds)->default_value(opt.max_seconds), "stop after this long (0 = never)")
      ("claim-after-s", po::value(&opt.claim_after_s)->default_value(opt.claim_after_s),
       "claim the game when the opponent has been gone this long (0 = never claim)")
      ("poll-ms", po::value(&opt.poll_ms)->default_value(opt.poll_ms), "how often the seek list is read")
      // One connection carries every game's moves, at most 16 frames a second: eight blitz games
      // against opponents who answer at once would run its clocks down however little it thinks.
      ("min-initial-s", po::value(&opt.min_initial_s)->default_value(opt.min_initial_s),
       "challenges with less initial time than this are declined");
  po::variables_map vm;
  try {
    po::store(po::parse_command_line(argc, argv, desc), vm);
    po::notify(vm);
  } catch (const std::exception& e) {
    std::cerr << "xqbot: " << e.what() << "\n" << desc;
    return 2;
  }
  if (vm.count("help")) {
    std::cout << desc;
    return 0;
  }
  auto url = xqbot::parse_server_url(server);
  if (!url) {
    std::cerr << "xqbot: --server must be ws://HOST[:PORT]/PATH, not " << server << "\n";
    return 2;
  }
  opt.server = *url;
  try {
    opt.seeks = xqbot::parse_seek_specs(seeks);
  } catch (const std::exception& e) {
    std::cerr << "xqbot: --seek: " << e.what() << "\n";
    return 2;
  }
  if (!password_file.empty()) {
    std::ifstream f(password_file);
    if (!f || !std::getline(f, opt.password)) {
      std::cerr << "xqbot: cannot read the password from " << password_file << "\n";
      return 2;
    }
    while (!opt.password.empty() && (opt.password.back() == '\r' || opt.password.back() == ' ')) opt.password.pop_back();
  } else if (const char* p = std::getenv("XQBOT_PASSWORD")) {
    opt.password = p;
  }
  if (opt.password.size() < 6) {
    std::cerr << "xqbot: a password of at least 6 characters is needed (--password-file or XQBOT_PASSWORD)\n";
    return 2;
  }
  if (opt.movetime_ms < 1 || opt.max_games < 1 || opt.poll_ms < 100 || opt.max_depth < 0 || opt.max_depth > 64) {
    std::cerr << "xqbot: --movetime-ms and --max-games must be positive, --poll-ms at least 100, --max-depth 0 to 64\n";
    return 2;
  }
  std::signal(SIGPIPE, SIG_IGN);

  boost::asio::io_context ioc;
  xqbot::BotClient bot(ioc, opt);
  boost::asio::signal_set signals(ioc, SIGINT, SIGTERM);
  signals.async_wait([&](const boost::system::error_code& ec, int) {
    if (!ec) bot.stop();
  });
  bot.on_stopped([&] { signals.cancel(); });  // then nothing is left to run and ioc.run() returns
  bot.start();
  ioc.run();
  return bot.exit_code();
}
