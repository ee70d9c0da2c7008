// naqala serve [--port P] [--host H] [--db FILE] [--web DIR]: the browser app (docs/server.md).
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <thread>

#include "cli/commands.h"
#include "core/error.h"
#include "server/server.h"

namespace naqala::cli {

void add_serve_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "serve", "Serve the browser app: play every game online, with clocks and matches");
  auto o = std::make_shared<server::ServerOptions>();
  o->web_root = NAQALA_WEB_ROOT;
  cmd->add_option("--port", o->port, "TCP port (default 8080; 0 = any free port)");
  cmd->add_option("--host", o->host,
                  "Address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)");
  cmd->add_option("--db", o->db,
                  "SQLite database file, created on first start (default naqala.db)");
  auto* web = cmd->add_option("--web", o->web_root,
                              "Directory of the built front-end (default: the build tree's web/)");
  cmd->add_option("--endgame-db", o->endgame_dbs,
                  "A sowing endgame database (naqala solve VARIANT --build-db K; repeat for "
                  "several): the game review says won/drawn/lost with perfect play where one "
                  "holds the position");
  cmd->add_option("--engine-threads", o->engine_threads,
                  "Threads for computer opponents (default 1)")
      ->check(CLI::Range(1, 64));
  cmd->add_option("--ws-rate", o->messages_per_second,
                  "WebSocket messages a second per connection, bursts of twice that (default 20)")
      ->check(CLI::Range(1.0, 100000.0));
  cmd->add_option("--http-rate", o->requests_per_second,
                  "HTTP requests a second per client address, bursts of twice that (default 50)")
      ->check(CLI::Range(1.0, 100000.0));
  cmd->callback([o, web] {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(std::filesystem::path(o->web_root) / "index.html", ec)) {
      if (web->count() > 0)  // asked for by name: a typo must not serve the API alone
        throw Error("--web " + o->web_root + ": no front-end there (no index.html)");
      std::cerr << "naqala serve: no front-end in " << o->web_root
                << " (build it with `cmake --build build/release --target naqala_web`); serving "
                   "the API only\n";
      o->web_root.clear();
    }
    std::unique_ptr<server::Server> srv;
    try {
      srv = std::make_unique<server::Server>(*o);
    } catch (const Error&) {
      throw;
    } catch (const std::exception& e) {
      throw Error(e.what());
    }
    // Ctrl-C and SIGTERM stop the server cleanly; every move is already committed anyway.
    boost::asio::io_context signals_io;
    boost::asio::signal_set signals(signals_io, SIGINT, SIGTERM);
    signals.async_wait([&](const boost::system::error_code&, int) { srv->stop(); });
    std::thread signal_thread([&] { signals_io.run(); });
    const std::string host = o->host == "0.0.0.0" ? "localhost" : o->host;
    std::cout << "naqala serve: http://" << host << ":" << srv->port() << "/  (database " << o->db
              << ")" << std::endl;
    srv->run();
    signals_io.stop();
    signal_thread.join();
    std::cout << "naqala serve: stopped" << std::endl;
  });
}

}  // namespace naqala::cli
