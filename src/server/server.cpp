#include "server/server.h"

#include <SQLiteCpp/Exception.h>

#include <atomic>
#include <boost/asio.hpp>
#include <boost/beast/_experimental/test/stream.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <charconv>
#include <chrono>
#include <deque>
#include <filesystem>
#include <iostream>
#include <map>
#include <utility>  // before Asio: Boost 1.74 uses std::exchange without it

#include "core/json_text.h"
#include "play/clocks.h"
#include "server/accounts.h"
#include "server/db_lock.h"
#include "server/hub.h"
#include "server/ratings.h"
#include "server/store.h"
#include "server/tournaments.h"

namespace naqala::server {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

namespace {

std::string mime_type(const std::string& path) {
  const auto ext = std::filesystem::path(path).extension().string();
  if (ext == ".html") return "text/html; charset=utf-8";
  if (ext == ".js" || ext == ".mjs") return "text/javascript; charset=utf-8";
  if (ext == ".css") return "text/css; charset=utf-8";
  if (ext == ".svg") return "image/svg+xml";
  if (ext == ".png") return "image/png";
  if (ext == ".json" || ext == ".map") return "application/json";
  if (ext == ".ico") return "image/x-icon";
  if (ext == ".webmanifest") return "application/manifest+json";
  return "application/octet-stream";
}

std::string url_decode(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      out += static_cast<char>(std::stoi(std::string(s.substr(i + 1, 2)), nullptr, 16));
      i += 2;
    } else {
      out += s[i] == '+' ? ' ' : s[i];
    }
  }
  return out;
}

// A request without Origin (a program, not a browser) or from a page served by this host.
bool same_origin(const http::request<http::string_body>& req) {
  const std::string_view origin(req[http::field::origin].data(), req[http::field::origin].size());
  if (origin.empty()) return true;
  const auto scheme = origin.find("://");
  if (scheme == std::string_view::npos) return false;
  const std::string_view host(req[http::field::host].data(), req[http::field::host].size());
  return !host.empty() && origin.substr(scheme + 3) == host;
}

std::string query_param(std::string_view query, std::string_view key) {
  while (!query.empty()) {
    const auto amp = query.find('&');
    const auto item = query.substr(0, amp);
    const auto eq = item.find('=');
    if (item.substr(0, eq) == key)
      return eq == std::string_view::npos ? "" : url_decode(item.substr(eq + 1));
    if (amp == std::string_view::npos) break;
    query = query.substr(amp + 1);
  }
  return {};
}

// The store, or an error that names the file (a directory that is missing, a file that is not
// a database).
Store open_store(const std::string& db) {
  try {
    return Store(db);
  } catch (const std::exception& e) {
    throw Error("cannot open the database '" + db + "': " + e.what());
  }
}

}  // namespace

// A token bucket: `rate` a second on average, bursts of twice that. Outside the anonymous
// namespace: Server::Impl holds some, which a unity build's GCC warns about otherwise.
class RateLimit {
 public:
  explicit RateLimit(double rate = 1)
      : rate_(rate), tokens_(2 * rate), last_(std::chrono::steady_clock::now()) {}
  RateLimit& refill() {
    const auto now = std::chrono::steady_clock::now();
    tokens_ =
        std::min(2 * rate_, tokens_ + rate_ * std::chrono::duration<double>(now - last_).count());
    last_ = now;
    return *this;
  }
  bool take() {
    if (refill().tokens_ < 1) return false;
    tokens_ -= 1;
    return true;
  }
  bool full() const { return tokens_ >= 2 * rate_ - 1e-9; }

 private:
  double rate_, tokens_;
  std::chrono::steady_clock::time_point last_;
};

struct Server::Impl {
  // Set when the server goes away: sessions destroyed with the io_context leave the hub alone.
  bool closing = false;
  ServerOptions options;
  asio::io_context io{1};
  DbLock db_lock;  // before the store opens the file
  Store store;
  Hub hub;
  Tournaments tournaments;
  Accounts accounts;
  // Password hashes (a few tenths of a second each) are computed here, not on the io thread.
  asio::thread_pool password_pool{1};
  tcp::acceptor acceptor;
  std::filesystem::path web_root;
  std::map<asio::ip::address, RateLimit> http_limits;  // per client address
  std::size_t in_memory_sessions = 0;  // of serve_in_memory's connection, which waits for them

  // Whether one more HTTP request from `from` is allowed now.
  bool allow_request(const asio::ip::address& from) {
    if (http_limits.size() > 10000) {  // forget the addresses that have been quiet
      for (auto it = http_limits.begin(); it != http_limits.end();)
        it = it->second.refill().full() ? http_limits.erase(it) : std::next(it);
    }
    auto it = http_limits.try_emplace(from, options.requests_per_second).first;
    return it->second.take();
  }

  explicit Impl(ServerOptions o)
      : options(std::move(o)),
        db_lock(options.db),
        store(open_store(options.db)),
        hub(io, store, options.engine_threads),
        tournaments(io, store, hub),
        accounts(store, hub),
        acceptor(io) {
    hub.set_extension(&tournaments);
    for (const auto& path : options.endgame_dbs) hub.add_endgame_db(path);
    if (!options.web_root.empty()) web_root = std::filesystem::weakly_canonical(options.web_root);
    boost::system::error_code ec;
    const auto address = asio::ip::make_address(options.host, ec);
    if (ec)
      throw std::runtime_error("--host " + options.host +
                               " is not an IP address (e.g. 127.0.0.1 or 0.0.0.0)");
    tcp::endpoint endpoint(address, options.port);
    acceptor.open(endpoint.protocol());
    acceptor.set_option(asio::socket_base::reuse_address(true));
    acceptor.bind(endpoint, ec);
    if (ec)
      throw std::runtime_error("cannot listen on " + options.host + ":" +
                               std::to_string(options.port) + ": " + ec.message() +
                               " (choose another --port)");
    acceptor.listen(asio::socket_base::max_listen_connections);
    hub.load_unfinished();
    tournaments.load();
  }

  void accept();
};

namespace {

// ------------------------------------------------------------------ Connections

// The sessions below serve a TCP connection (beast::tcp_stream), or one held in memory
// (beast::test::stream: Server::serve_in_memory, for tests and the fuzzer); what differs
// between the two is here, the rest is the same code.
using InMemory = beast::test::stream;

void read_deadline(beast::tcp_stream& s) {
  s.expires_after(std::chrono::seconds(60));
}
void read_deadline(InMemory&) {}  // all its bytes are there, then its end

void shut_down_sending(beast::tcp_stream& s) {
  beast::error_code ec;
  s.socket().shutdown(tcp::socket::shutdown_send, ec);
}
void shut_down_sending(InMemory& s) {
  s.close();
}

std::optional<asio::ip::address> peer_address(beast::tcp_stream& s) {
  beast::error_code ec;
  const auto peer = s.socket().remote_endpoint(ec);
  if (ec) return std::nullopt;
  return peer.address();
}
std::optional<asio::ip::address> peer_address(InMemory&) {
  return asio::ip::address_v4::loopback();
}

// The connection, handed from the HTTP session to the WebSocket session after an upgrade.
tcp::socket hand_over(beast::tcp_stream& s) {
  s.expires_never();
  return s.release_socket();
}
InMemory hand_over(InMemory& s) {
  return std::move(s);
}

// Counts the sessions of in-memory connections (serve_in_memory runs the loop until none is left).
template <class Stream>
struct SessionCount {
  explicit SessionCount(Server::Impl&) {}
};
template <>
struct SessionCount<InMemory> {
  explicit SessionCount(Server::Impl& server) : server(server) { ++server.in_memory_sessions; }
  ~SessionCount() { --server.in_memory_sessions; }
  SessionCount(const SessionCount&) = delete;
  SessionCount& operator=(const SessionCount&) = delete;
  Server::Impl& server;
};

// ------------------------------------------------------------------ WebSocket

template <class Stream>
class WsSession : public Client, public std::enable_shared_from_this<WsSession<Stream>> {
 public:
  template <class Connection>
  WsSession(Connection&& connection, Server::Impl& server)
      : ws_(std::forward<Connection>(connection)), server_(server), count_(server) {}
  ~WsSession() override {
    if (!server_.closing) server_.hub.disconnect(*this);
  }

  void start(http::request<http::string_body> request) {
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
    ws_.read_message_max(server_.options.max_message);
    limit_ = RateLimit(server_.options.messages_per_second);
    ws_.async_accept(request, [self = this->shared_from_this()](beast::error_code ec) {
      if (!ec) self->read();
    });
  }

  void send(std::shared_ptr<const std::string> text) override {
    if (closed_) return;
    if (queue_.size() >= 512) {
      // A client that does not read: let it go, but after the caller's handler, which may be
      // walking a watcher set that letting go edits.
      asio::post(ws_.get_executor(), [self = this->shared_from_this()] {
        self->close(websocket::close_code::policy_error, "too slow to read");
      });
      return;
    }
    queue_.push_back(std::move(text));
    if (queue_.size() == 1) write();
  }

 private:
  void read() {
    ws_.async_read(buffer_, [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) {
        self->closed_ = true;
        self->server_.hub.disconnect(*self);
        return;
      }
      self->on_message();
    });
  }

  void on_message() {
    const std::string text = beast::buffers_to_string(buffer_.data());
    buffer_.consume(buffer_.size());
    if (ending_) {
      // closing for flooding: dropped (end_after_replies)
    } else if (!limit_.take()) {  // binary frames count too
      if (++floods_ > 100) {
        end_after_replies();
      } else {
        send(std::make_shared<const std::string>(json_text(json{
            {"type", "error"},
            {"status", 429},
            {"message", "too many messages: at most " +
                            std::to_string(static_cast<int>(server_.options.messages_per_second)) +
                            " a second"}})));
      }
    } else if (!ws_.got_text()) {
      send(std::make_shared<const std::string>(
          R"({"type":"error","status":400,"message":"messages are JSON text frames, not binary"})"));
    } else {
      server_.hub.handle(*this, text);
    }
    if (!closed_) read();
  }

  void write() {
    ws_.text(true);
    ws_.async_write(asio::buffer(*queue_.front()),
                    [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
                      if (ec) {
                        self->closed_ = true;
                        self->queue_.clear();
                        return;
                      }
                      self->queue_.pop_front();
                      if (!self->queue_.empty())
                        self->write();
                      else if (self->ending_)
                        self->close(websocket::close_code::policy_error, "too many messages");
                    });
  }

  // Past 100 refused messages the connection is closed, but only once the replies already
  // queued are written: a close drops what is queued, and those are the replies to messages the
  // server handled (a stored move's acknowledgement) and the refusals that say why. The hub
  // forgets the connection at once (no new views are queued); messages that come meanwhile are
  // read and dropped, so a client writing without reading cannot stall the drain.
  void end_after_replies() {
    ending_ = true;
    server_.hub.disconnect(*this);
    if (queue_.empty()) close(websocket::close_code::policy_error, "too many messages");
  }

  void close(websocket::close_code code, const char* reason) {
    if (closed_) return;
    closed_ = true;
    server_.hub.disconnect(*this);
    ws_.async_close(websocket::close_reason(code, reason),
                    [self = this->shared_from_this()](beast::error_code) {});
  }

  websocket::stream<Stream> ws_;
  Server::Impl& server_;
  SessionCount<Stream> count_;
  beast::flat_buffer buffer_;
  std::deque<std::shared_ptr<const std::string>> queue_;
  bool closed_ = false;
  bool ending_ = false;  // closing for flooding once the queue is written
  RateLimit limit_;
  int floods_ = 0;
};

// ------------------------------------------------------------------ HTTP

template <class Stream>
class HttpSession : public std::enable_shared_from_this<HttpSession<Stream>> {
 public:
  template <class Connection>
  HttpSession(Connection&& connection, Server::Impl& server)
      : stream_(std::forward<Connection>(connection)), server_(server), count_(server) {}

  void read() {
    parser_.emplace();
    parser_->body_limit(server_.options.max_body);
    parser_->header_limit(8192);
    read_deadline(stream_);
    http::async_read(stream_, buffer_, *parser_,
                     [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
                       self->on_read(ec);
                     });
  }

 private:
  void on_read(beast::error_code ec) {
    if (ec == http::error::end_of_stream || ec == beast::error::timeout) return close();
    if (ec == http::error::body_limit || ec == http::error::header_limit) {
      return reply_error(http::status::payload_too_large, 11,
                         "request too large: bodies are at most " +
                             std::to_string(server_.options.max_body) +
                             " bytes and headers at most 8192");
    }
    if (ec) {  // not HTTP, a bad Content-Length, ...: an answer, then the connection closes
      return reply_error(http::status::bad_request, 11,
                         "malformed HTTP request (" + ec.message() + ")");
    }
    auto request = parser_->release();
    const auto peer = peer_address(stream_);
    if (peer && !server_.allow_request(*peer)) {
      auto res = std::make_shared<http::response<http::string_body>>(
          http::status::too_many_requests, request.version());
      res->set(http::field::content_type, "application/json");
      res->set(http::field::retry_after, "1");
      res->body() = json_text(
          json{{"error", "too many requests from this address: at most " +
                             std::to_string(static_cast<int>(server_.options.requests_per_second)) +
                             " a second (bursts of twice that); wait a second"}});
      res->keep_alive(request.keep_alive());
      res->prepare_payload();
      return send(res);
    }
    if (websocket::is_upgrade(request)) {
      if (request.target() != "/ws")
        return reply_error(http::status::not_found, request.version(),
                           "no WebSocket at " + std::string(request.target()) +
                               "; WebSocket connections go to /ws");
      if (!same_origin(request))  // another site's page must not act with a visitor's token
        return reply_error(http::status::forbidden, request.version(),
                           "WebSocket connections from pages of another site are refused "
                           "(Origin " +
                               std::string(request[http::field::origin]) + ")");
      std::make_shared<WsSession<Stream>>(hand_over(stream_), server_)->start(std::move(request));
      return;
    }
    handle(std::move(request));
  }

  template <class Response>
  void send(std::shared_ptr<Response> res) {
    // On every reply: the page may load only its own scripts, styles and sockets, and may not
    // be framed by another site (docs/security.md).
    res->set("Content-Security-Policy",
             "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
             "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'");
    res->set("X-Frame-Options", "DENY");
    res->set("X-Content-Type-Options", "nosniff");
    res->set("Referrer-Policy", "no-referrer");
    http::async_write(stream_, *res,
                      [self = this->shared_from_this(), res](beast::error_code ec, std::size_t) {
                        if (ec || !res->keep_alive()) return self->close();
                        self->read();
                      });
  }

  // An error reply on a connection that then closes (the request may not be readable).
  void reply_error(http::status status, unsigned version, const std::string& message) {
    auto res = std::make_shared<http::response<http::string_body>>(status, version);
    res->set(http::field::content_type, "application/json");
    res->body() = json_text(json{{"error", message}});
    res->keep_alive(false);
    res->prepare_payload();
    send(res);
  }

  void close() { shut_down_sending(stream_); }

  void reply_json(const http::request<http::string_body>& req, http::status status,
                  const json& body) {
    auto res = std::make_shared<http::response<http::string_body>>(status, req.version());
    res->set(http::field::content_type, "application/json");
    res->set(http::field::cache_control, "no-store");
    res->keep_alive(req.keep_alive());
    res->body() = json_text(body);
    res->prepare_payload();
    send(res);
  }

  void handle(http::request<http::string_body> req) {
    const std::string_view target(req.target().data(), req.target().size());
    const auto qmark = target.find('?');
    const std::string path = url_decode(target.substr(0, qmark));
    const std::string_view query = qmark == std::string_view::npos ? "" : target.substr(qmark + 1);
    const bool get = req.method() == http::verb::get || req.method() == http::verb::head;
    const bool post = req.method() == http::verb::post;
    Hub& hub = server_.hub;
    try {
      if (path.starts_with("/api/")) {
        auto body = [&] {
          try {
            return req.body().empty() ? json::object() : json::parse(req.body());
          } catch (const json::exception&) {
            throw ApiError(400, "the request body is not valid JSON");
          }
        };
        const std::string token(req[http::field::authorization].starts_with("Bearer ")
                                    ? req[http::field::authorization].substr(7)
                                    : beast::string_view{});
        if (path == "/api/health" && get) return reply_json(req, http::status::ok, {{"ok", true}});
        if (path == "/api/variants" && get)
          return reply_json(req, http::status::ok, hub.variants());
        if (path == "/api/clocks" && get)
          return reply_json(req, http::status::ok, play::clock_presets_json());
        if (path == "/api/rules" && get) {
          const std::string v = query_param(query, "variant");
          if (v.empty()) throw ApiError(400, "give the variant: /api/rules?variant=oware");
          return reply_json(req, http::status::ok, hub.rules(v));
        }
        if (path == "/api/players" && post) {
          const json b = body();
          if (b.is_object() && b.contains("password") && !b["password"].is_null())
            return reply_slow(req, http::status::created, server_.accounts.create(b));
          return reply_json(req, http::status::created, hub.create_player(b));
        }
        if (path.starts_with("/api/players/") && get) {
          const std::string id = path.substr(13);
          std::int64_t n = 0;
          const auto [end, ec] = std::from_chars(id.data(), id.data() + id.size(), n);
          if (id.empty() || ec != std::errc() || end != id.data() + id.size())
            throw ApiError(400, "a player is named by his number: /api/players/12");
          return reply_json(req, http::status::ok, player_page(server_.store, n));
        }
        if (path == "/api/ratings" && get) {
          const std::string game = query_param(query, "game");
          if (game.empty()) throw ApiError(400, "give the game: /api/ratings?game=oware");
          return reply_json(req, http::status::ok, leaderboard(server_.store, game));
        }
        if (path == "/api/players/signin" && post)
          return reply_slow(req, http::status::ok, server_.accounts.sign_in(body()));
        if (path == "/api/players/signout" && post) {
          json b = body();
          if (b.is_object() && !b.contains("token") && !token.empty()) b["token"] = token;
          return reply_json(req, http::status::ok, server_.accounts.sign_out(b));
        }
        if (path == "/api/players/password" && post) {
          json b = body();
          if (b.is_object() && !b.contains("token") && !token.empty()) b["token"] = token;
          return reply_slow(req, http::status::ok, server_.accounts.set_password(b));
        }
        if (path == "/api/games" && post) {
          json b = body();
          if (b.is_object() && !b.contains("token") && !token.empty()) b["token"] = token;
          return reply_json(req, http::status::created, hub.create_game(b));
        }
        if (path == "/api/games" && get) return reply_json(req, http::status::ok, hub.list_games());
        if (path == "/api/tournaments" || path.starts_with("/api/tournaments/"))
          return handle_tournaments(req, path, post, get, token, body);
        if (path.starts_with("/api/games/") && get) {
          std::string rest = path.substr(11);
          std::string what;
          if (const auto slash = rest.find('/'); slash != std::string::npos) {
            what = rest.substr(slash + 1);
            rest = rest.substr(0, slash);
          }
          if (what.empty()) return reply_json(req, http::status::ok, hub.game(rest, token));
          if (what == "review") return reply_json(req, http::status::ok, hub.review(rest));
          if (what == "analysis") {
            const std::string ply = query_param(query, "ply");
            // Without a ply: a backgammon game's review, every decision judged.
            if (ply.empty() && query.find("ply=") == std::string::npos)
              return reply_json(req, http::status::ok, hub.decisions_review(rest));
            int k = -1;
            const auto [end, ec] = std::from_chars(ply.data(), ply.data() + ply.size(), k);
            if (ply.empty() || ec != std::errc() || end != ply.data() + ply.size())
              throw ApiError(
                  400, "give the ply as a whole number: /api/games/" + rest + "/analysis?ply=12");
            return reply_json(req, http::status::ok, hub.analysis(rest, k));
          }
          if (what == "record") {
            auto res = std::make_shared<http::response<http::string_body>>(http::status::ok,
                                                                           req.version());
            res->set(http::field::content_type, "text/plain; charset=utf-8");
            res->set(http::field::content_disposition,
                     "attachment; filename=\"naqala-" + rest + ".txt\"");
            res->keep_alive(req.keep_alive());
            res->body() = hub.record(rest);
            res->prepare_payload();
            return send(res);
          }
        }
        throw ApiError(404, "no such API call: " + std::string(req.method_string()) + " " + path +
                                " (see docs/server.md)");
      }
      if (!get) throw ApiError(405, "only GET is served outside /api/");
      return serve_file(req, path);
    } catch (const ApiError& e) {
      return reply_json(req, static_cast<http::status>(e.status), {{"error", e.what()}});
    } catch (const SQLite::Exception& e) {
      return reply_json(req, http::status::service_unavailable,
                        {{"error", storage_refused(e).what()}});
    } catch (const std::exception& e) {
      std::cerr << "naqala serve: internal error on " << path << ": " << e.what() << "\n";
      return reply_json(req, http::status::internal_server_error,
                        {{"error", std::string("internal error: ") + e.what()}});
    }
  }

  // Replies once the slow part of the request (a password hash) is done off the io thread;
  // the connection reads its next request after the reply, as always.
  void reply_slow(const http::request<http::string_body>& req, http::status status,
                  SlowRequest slow) {
    auto r = std::make_shared<http::request<http::string_body>>(req);
    asio::post(server_.password_pool, [self = this->shared_from_this(), r, status,
                                       slow = std::move(slow)]() mutable {
      std::string failure;
      try {
        slow.work();
      } catch (const std::exception& e) {
        failure = e.what();
      }
      asio::post(self->stream_.get_executor(), [self, r, status, slow = std::move(slow), failure] {
        try {
          if (!failure.empty()) throw std::runtime_error(failure);
          self->reply_json(*r, status, slow.finish());
        } catch (const ApiError& e) {
          self->reply_json(*r, static_cast<http::status>(e.status), {{"error", e.what()}});
        } catch (const std::exception& e) {
          std::cerr << "naqala serve: internal error on " << r->target() << ": " << e.what()
                    << "\n";
          self->reply_json(*r, http::status::internal_server_error,
                           {{"error", std::string("internal error: ") + e.what()}});
        }
      });
    });
  }

  // /api/tournaments[/ID[/join|/start|/standings|/standings.csv|/records]] (docs/server.md).
  template <class Body>
  void handle_tournaments(const http::request<http::string_body>& req, const std::string& path,
                          bool post, bool get, const std::string& token, Body body) {
    Tournaments& t = server_.tournaments;
    auto with_token = [&] {
      json b = body();
      if (b.is_object() && !b.contains("token") && !token.empty()) b["token"] = token;
      return b;
    };
    if (path == "/api/tournaments") {
      if (post) return reply_json(req, http::status::created, t.create(with_token()));
      if (get) return reply_json(req, http::status::ok, t.list());
    } else {
      std::string id = path.substr(17), what;
      if (const auto slash = id.find('/'); slash != std::string::npos) {
        what = id.substr(slash + 1);
        id = id.substr(0, slash);
      }
      if (get && what.empty()) return reply_json(req, http::status::ok, t.get(id));
      if (get && what == "standings") return reply_json(req, http::status::ok, t.standings(id));
      if (get && what == "records") return reply_json(req, http::status::ok, t.records(id));
      if (post && what == "join")
        return reply_json(req, http::status::ok, t.join(id, with_token()));
      if (post && what == "start")
        return reply_json(req, http::status::ok, t.start(id, with_token()));
      if (get && what == "standings.csv") {
        auto res =
            std::make_shared<http::response<http::string_body>>(http::status::ok, req.version());
        res->set(http::field::content_type, "text/csv; charset=utf-8");
        res->set(http::field::content_disposition,
                 "attachment; filename=\"naqala-" + id + "-standings.csv\"");
        res->keep_alive(req.keep_alive());
        res->body() = t.standings_csv(id);
        res->prepare_payload();
        return send(res);
      }
    }
    throw ApiError(404, "no such API call: " + std::string(req.method_string()) + " " + path +
                            " (tournaments: GET/POST /api/tournaments, GET /api/tournaments/ID"
                            "[/standings|/standings.csv|/records], POST /api/tournaments/ID/join"
                            "|start; see docs/server.md)");
  }

  void serve_file(const http::request<http::string_body>& req, const std::string& path) {
    const auto& root = server_.web_root;
    if (root.empty()) throw ApiError(404, "this server has no front-end (start it with --web DIR)");
    if (path.find("..") != std::string::npos || path.find('\0') != std::string::npos)
      throw ApiError(400, "bad path");
    std::filesystem::path file = root / std::filesystem::path(path).relative_path();
    std::error_code fec;
    if (path == "/" || std::filesystem::is_directory(file, fec)) file = root / "index.html";
    // The app routes by #fragment, but a plain path without a dot gets the app too.
    if (!std::filesystem::is_regular_file(file, fec) &&
        std::filesystem::path(path).extension().empty())
      file = root / "index.html";
    http::file_body::value_type body;
    beast::error_code ec;
    body.open(file.string().c_str(), beast::file_mode::scan, ec);
    if (ec) throw ApiError(404, "not found: " + path);
    const auto size = body.size();
    if (req.method() == http::verb::head) {
      auto res =
          std::make_shared<http::response<http::empty_body>>(http::status::ok, req.version());
      res->set(http::field::content_type, mime_type(file.string()));
      res->content_length(size);
      res->keep_alive(req.keep_alive());
      return send(res);
    }
    auto res = std::make_shared<http::response<http::file_body>>(
        std::piecewise_construct, std::make_tuple(std::move(body)),
        std::make_tuple(http::status::ok, req.version()));
    res->set(http::field::content_type, mime_type(file.string()));
    res->set(http::field::cache_control, "no-cache");
    res->content_length(size);
    res->keep_alive(req.keep_alive());
    send(res);
  }

  Stream stream_;
  Server::Impl& server_;
  SessionCount<Stream> count_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
};

}  // namespace

void Server::Impl::accept() {
  acceptor.async_accept(asio::make_strand(io), [this](beast::error_code ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted) return;
    if (!ec) std::make_shared<HttpSession<beast::tcp_stream>>(std::move(socket), *this)->read();
    accept();
  });
}

Server::Server(ServerOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {
  impl_->accept();
}

Server::~Server() {
  stop();
  impl_->tournaments.shutdown();
  impl_->hub.shutdown();
  impl_->closing = true;
}

unsigned short Server::port() const {
  return impl_->acceptor.local_endpoint().port();
}

namespace {

// Runs `step` until it returns; a handler that throws (a database write refused on a timer,
// say) is logged, and the server keeps serving everyone else.
template <class Step>
void serve_logging_errors(Step step) {
  for (;;) {
    try {
      step();
      return;
    } catch (const std::exception& e) {
      std::cerr << "naqala serve: internal error: " << e.what() << "\n";
    }
  }
}

}  // namespace

void Server::run() {
  serve_logging_errors([&] { impl_->io.run(); });
}

std::string Server::serve_in_memory(std::string_view bytes) {
  Impl& impl = *impl_;
  InMemory connection(impl.io), client(impl.io);
  connection.connect(client);
  connection.append(beast::string_view(bytes.data(), bytes.size()));
  connection.close_remote();  // the client sent its bytes and half-closed
  std::make_shared<HttpSession<InMemory>>(std::move(connection), impl)->read();
  bool stopped = false;
  serve_logging_errors([&] {
    while (impl.in_memory_sessions > 0 && !stopped) stopped = impl.io.run_one() == 0;
  });
  if (stopped) throw Error("the server was stopped while it served a connection in memory");
  serve_logging_errors([&] { impl.io.poll(); });  // what the sessions left ready (timers cancelled)
  const auto written = client.str();
  return std::string(written.data(), written.size());
}

void Server::stop() {
  asio::post(impl_->io, [impl = impl_.get()] {
    beast::error_code ec;
    impl->acceptor.close(ec);
    impl->io.stop();
  });
}

}  // namespace naqala::server
