// The server load test: child process, players on WebSockets, the final check.
#include "cli/serve_load.h"

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>
#include <utility>  // Boost 1.74 Asio uses std::exchange without including it

#include "core/error.h"
#include "core/rng.h"

namespace naqala::cli {

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;
// Every game has a clock, long enough that no flag falls during a run.
constexpr double kClockMinutes = 180;
// How long a killed server stays down before it is started again.
constexpr auto kDownTime = std::chrono::milliseconds(300);

// Lost the server (killed, restarting): the player reconnects and goes on.
struct Disconnected : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// `naqala serve` as a child process on a fixed database, killed and started again at will.
class ChildServer {
 public:
  explicit ChildServer(std::string db) : db_(std::move(db)) {}
  ~ChildServer() { stop(SIGTERM); }

  // Starts the child on `port` (0: any free one, then kept for every restart) and waits for
  // the line that says it listens. A port still held by the killed process is tried again.
  void start() {
    for (int attempt = 0;; ++attempt) {
      if (try_start()) return;
      if (attempt == 200)
        throw Error("bench serve: the server would not start again on port " +
                    std::to_string(port_) + " (see " + log_ + ")");
      std::this_thread::sleep_for(std::chrono::milliseconds(50));  // the port to come free
    }
  }
  void kill9() { stop(SIGKILL); }
  void stop(int signal) {
    if (pid_ <= 0) return;
    ::kill(pid_, signal);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
  }
  unsigned short port() const { return port_; }
  // Resident memory in KiB, from /proc.
  long rss_kb() const {
    std::ifstream in("/proc/" + std::to_string(pid_) + "/status");
    for (std::string line; std::getline(in, line);)
      if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
    return -1;
  }

 private:
  bool try_start() {
    int out[2];
    if (::pipe(out) != 0) throw Error("bench serve: cannot make a pipe");
    log_ = db_ + ".log";
    const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
    const std::string port = std::to_string(port_);
    const pid_t pid = ::fork();
    if (pid < 0) throw Error("bench serve: cannot start a process");
    if (pid == 0) {
      ::dup2(out[1], STDOUT_FILENO);
      if (FILE* log = std::fopen(log_.c_str(), "a")) ::dup2(fileno(log), STDERR_FILENO);
      ::close(out[0]);
      ::close(out[1]);
      // No limits on the rate of requests: the load is the point.
      ::execl(self.c_str(), self.c_str(), "serve", "--port", port.c_str(), "--db", db_.c_str(),
              "--ws-rate", "100000", "--http-rate", "100000", static_cast<char*>(nullptr));
      ::_exit(127);
    }
    ::close(out[1]);
    std::string text;
    char c;
    while (::read(out[0], &c, 1) == 1 && c != '\n') text += c;
    // The rest of its output (the stop line) goes nowhere.
    ::close(out[0]);
    const auto at = text.find("naqala serve: http://");
    const auto colon = text.rfind(':');
    if (at == std::string::npos || colon == std::string::npos) {
      int status = 0;
      ::waitpid(pid, &status, 0);
      return false;
    }
    pid_ = pid;
    port_ = static_cast<unsigned short>(std::stoi(text.substr(colon + 1)));
    return true;
  }

  std::string db_, log_;
  pid_t pid_ = -1;
  unsigned short port_ = 0;
};

struct Endpoint {
  std::string host;
  unsigned short port = 0;
};

// One HTTP request; the reply's status and JSON body. 429 is waited out (Retry-After).
std::pair<int, json> request(const Endpoint& at, http::verb verb, const std::string& target,
                             const json& body = nullptr) {
  for (;;) {
    asio::io_context io;
    beast::tcp_stream stream(io);
    beast::error_code ec;
    stream.socket().connect(tcp::endpoint(asio::ip::make_address(at.host), at.port), ec);
    if (ec) throw Disconnected(ec.message());
    http::request<http::string_body> req(verb, target, 11);
    req.set(http::field::host, at.host);
    if (!body.is_null()) {
      req.set(http::field::content_type, "application/json");
      req.body() = body.dump();
      req.prepare_payload();
    }
    http::write(stream, req, ec);
    beast::flat_buffer buffer;
    http::response<http::string_body> res;
    if (!ec) http::read(stream, buffer, res, ec);
    if (ec) throw Disconnected(ec.message());
    if (res.result_int() == 429) {
      std::this_thread::sleep_for(std::chrono::seconds(1));  // as Retry-After says
      continue;
    }
    return {res.result_int(), json::parse(res.body(), nullptr, false)};
  }
}

json checked(const std::pair<int, json>& reply, const std::string& what) {
  if (reply.first / 100 != 2)
    throw Error("bench serve: " + what + " answered " + std::to_string(reply.first) + ": " +
                reply.second.dump());
  return reply.second;
}

// One player's WebSocket.
class Socket {
 public:
  Socket(const Endpoint& at, const std::string& token) : ws_(io_) {
    beast::error_code ec;
    beast::get_lowest_layer(ws_).socket().connect(
        tcp::endpoint(asio::ip::make_address(at.host), at.port), ec);
    if (!ec) ws_.handshake(at.host, "/ws", ec);
    if (ec) throw Disconnected(ec.message());
    send({{"type", "hello"}, {"token", token}});
  }
  void send(const json& m) {
    beast::error_code ec;
    ws_.text(true);
    ws_.write(asio::buffer(m.dump()), ec);
    if (ec) throw Disconnected(ec.message());
  }
  json read() {
    beast::flat_buffer buffer;
    beast::error_code ec;
    ws_.read(buffer, ec);
    if (ec) throw Disconnected(ec.message());
    return json::parse(beast::buffers_to_string(buffer.data()), nullptr, false);
  }
  // The next view of game `id` with more than `plies` plies, or an error frame.
  json view_after(const std::string& id, std::size_t plies) {
    for (;;) {
      json m = read();
      if (m.value("type", "") == "error") return m;
      if (m.value("type", "") == "game" && m.value("id", "") == id && m["plies"].size() > plies)
        return m;
    }
  }
  // The next view of game `id` (what `watch` answers with).
  json view_of(const std::string& id) {
    for (;;) {
      json m = read();
      if (m.value("type", "") == "error")
        throw Error("bench serve: watching game " + id + ": " + m.dump());
      if (m.value("type", "") == "game" && m.value("id", "") == id) return m;
    }
  }

 private:
  asio::io_context io_;
  websocket::stream<beast::tcp_stream> ws_;
};

// What the players share with the conductor.
struct Shared {
  Endpoint at;
  ServeLoadOptions options;
  std::atomic<bool> stop{false};
  std::atomic<long> moves{0};
  std::atomic<int> started{0}, failed{0}, reconnects{0}, games_over{0};
  std::atomic<long> clocks_checked{0}, clocks_wrong{0};
  std::atomic<Clock::rep> restart_begun{0};  // when the killed server was last started again
  std::vector<std::string> clock_problems;   // under mutex
  std::atomic<std::uint64_t> generation{0};  // counts server restarts
  std::mutex mutex;
  std::vector<std::string> errors;  // a player's failure that is not a lost server
};

// The acknowledged moves of one game.
struct GameLog {
  std::string id;
  std::vector<std::string> acked;  // acked[k] is the text of ply k, where known
  std::vector<bool> known;
};

// Two players and their games, one after another, until told to stop.
class Table {
 public:
  Table(Shared& shared, int number)
      : shared_(shared), rng_(shared.options.seed * 1000003 + number) {}

  void run() {
    try {
      for (int side = 0; side < 2; ++side)
        tokens_[side] = checked(request(shared_.at, http::verb::post, "/api/players",
                                        {{"name", "load" + std::to_string(side)}}),
                                "POST /api/players")["token"]
                            .get<std::string>();
      new_game();
      ++shared_.started;
      play();
    } catch (const std::exception& e) {
      if (shared_.stop) return;
      std::lock_guard lock(shared_.mutex);
      shared_.errors.push_back(e.what());
      ++shared_.failed;
    }
  }

  std::vector<GameLog> logs;
  std::vector<float> latencies_ms;

 private:
  void new_game() {
    const json view = checked(request(shared_.at, http::verb::post, "/api/games",
                                      {{"token", tokens_[0]},
                                       {"variant", shared_.options.variant},
                                       {"opponent", "human"},
                                       {"side", "south"},
                                       {"clock", {{"minutes", kClockMinutes}}}}),
                              "POST /api/games");
    logs.push_back({view["id"].get<std::string>(), {}, {}});
    stored_ms_.fill(view["clock"]["initial_ms"].get<std::int64_t>());
    connect();
  }

  // Both sockets (again); the second player takes his seat if the game still waits for him.
  void connect() {
    const std::string& id = logs.back().id;
    for (int side = 0; side < 2; ++side) {
      sockets_[side].reset();
      sockets_[side].emplace(shared_.at, tokens_[side]);
    }
    sockets_[0]->send({{"type", "watch"}, {"game", id}});
    view_ = sockets_[0]->view_of(id);
    if (view_.value("status", "") == "waiting") {
      sockets_[1]->send({{"type", "join"}, {"game", id}});
      do view_ = sockets_[1]->view_of(id);
      while (view_.value("status", "") == "waiting");
      sockets_[0]->view_of(id);  // the join, as the first player sees it
    } else {
      sockets_[1]->send({{"type", "watch"}, {"game", id}});
      view_ = sockets_[1]->view_of(id);
    }
  }

  void play() {
    while (!shared_.stop) {
      try {
        if (view_.value("status", "") == "over") {
          new_game();
          continue;
        }
        move();
      } catch (const Disconnected&) {
        reconnect();
      }
    }
  }

  void move() {
    GameLog& log = logs.back();
    const int mover = view_["to_move"] == "south" ? 0 : 1;
    const json& legal = view_["legal"];
    if (legal.empty()) throw Error("game " + log.id + ": playing, but no legal move");
    const auto text =
        legal[rng_.below(static_cast<std::uint32_t>(legal.size()))].get<std::string>();
    const std::size_t plies = view_["plies"].size();
    const auto sent = Clock::now();
    sockets_[mover]->send({{"type", "move"}, {"game", log.id}, {"move", text}, {"ply", plies}});
    json reply = sockets_[mover]->view_after(log.id, plies);
    if (reply.value("type", "") == "error")
      throw Error("game " + log.id + ": move " + text + " refused: " + reply.dump());
    const auto& ply = reply["plies"][plies];
    if (ply["text"] != text)
      throw Error("game " + log.id + ": ply " + std::to_string(plies) + " acknowledged as " +
                  ply["text"].dump() + ", sent " + text);
    latencies_ms.push_back(std::chrono::duration<float, std::milli>(Clock::now() - sent).count());
    note_clocks(reply, mover, sent);
    if (log.acked.size() <= plies) log.acked.resize(plies + 1), log.known.resize(plies + 1);
    log.acked[plies] = text;
    log.known[plies] = true;
    ++shared_.moves;
    if (reply.value("status", "") == "over") ++shared_.games_over;
    sockets_[1 - mover]->view_after(log.id, plies);  // the opponent sees it too
    view_ = std::move(reply);
  }

  // The server went away: wait for it, reconnect, and take the game as it stands.
  void reconnect() {
    while (!shared_.stop) {
      // Read before connecting: the server that answers was started at this moment or later.
      const Clock::time_point restarted{Clock::duration(shared_.restart_begun.load())};
      try {
        connect();
        ++shared_.reconnects;
        check_resumed_clocks(restarted);
        return;
      } catch (const Disconnected&) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));  // the server restarting
      }
    }
  }

  // What each side's clock holds in the database, as far as the acknowledged views tell: a
  // clock that is not running shows its stored value; one running shows less, unless the
  // animation allowance still holds it (starts_in_ms > 0).
  void note_clocks(const json& view, int mover, Clock::time_point sent) {
    const json& clock = view["clock"];
    const bool held = clock["starts_in_ms"].get<std::int64_t>() > 0;
    for (int side = 0; side < 2; ++side) {
      const char* name = side == 0 ? "south" : "north";
      const bool running = clock["running_sides"].contains(name);
      if (!running || held)
        stored_ms_[side] = clock[side == 0 ? "south_ms" : "north_ms"].get<std::int64_t>();
      else if (side == mover)
        stored_ms_[side].reset();  // moves again, its clock already running: not known
    }
    acked_plies_ = view["plies"].size();
    last_sent_ = sent;
  }

  // After a restart a game goes on with the clocks of its last stored ply (docs/server.md): the
  // side not to move has exactly what it had, and the side to move has lost at most the time
  // since the server was started again (the time it was down is nobody's).
  void check_resumed_clocks(Clock::time_point restarted) {
    if (view_.value("status", "") != "playing" || view_["plies"].size() != acked_plies_ ||
        acked_plies_ == 0)
      return;  // a move the kill caught between its commit and its acknowledgement
    const json& clock = view_["clock"];
    const int to_move = view_["to_move"] == "south" ? 0 : 1;
    const auto since_sent = std::chrono::duration_cast<std::chrono::milliseconds>(
                                Clock::now() - std::max(last_sent_, restarted))
                                .count();
    std::string wrong;
    for (int side = 0; side < 2; ++side) {
      if (!stored_ms_[side]) continue;
      const auto now = clock[side == 0 ? "south_ms" : "north_ms"].get<std::int64_t>();
      const auto lost = *stored_ms_[side] - now;
      const bool ok = side == to_move ? lost >= 0 && lost <= since_sent + 1 : lost == 0;
      if (!ok)
        wrong += std::string(side == 0 ? " south" : " north") + " stored " +
                 std::to_string(*stored_ms_[side]) + " ms, resumed with " + std::to_string(now) +
                 " ms (" + std::to_string(since_sent) + " ms since the restart)";
    }
    ++shared_.clocks_checked;
    if (wrong.empty()) return;
    ++shared_.clocks_wrong;
    std::lock_guard lock(shared_.mutex);
    if (shared_.clock_problems.size() < 10)
      shared_.clock_problems.push_back("game " + logs.back().id + " after a restart:" + wrong);
  }

  Shared& shared_;
  Rng rng_;
  std::array<std::optional<std::int64_t>, 2> stored_ms_;
  std::size_t acked_plies_ = 0;
  Clock::time_point last_sent_;
  std::array<std::string, 2> tokens_;
  std::array<std::optional<Socket>, 2> sockets_;
  json view_;
};

float percentile(std::vector<float>& v, double q) {
  if (v.empty()) return 0;
  const auto k = static_cast<std::size_t>(q * (v.size() - 1));
  std::nth_element(v.begin(), v.begin() + k, v.end());
  return v[k];
}

void raise_file_limit() {
  rlimit r{};
  if (::getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur < r.rlim_max) {
    r.rlim_cur = r.rlim_max;
    ::setrlimit(RLIMIT_NOFILE, &r);
  }
}

}  // namespace

ServeLoadReport run_serve_load(const ServeLoadOptions& o) {
  if (o.games < 1) throw Error("bench serve: --games must be at least 1");
  if (o.seconds <= 0 && o.moves <= 0)
    throw Error("bench serve: give --seconds or --moves, or the run never ends");
  if (o.kills > 0 && o.port != 0)
    throw Error("bench serve: --kills needs the server it starts itself (no --port)");
  raise_file_limit();
  ::signal(SIGPIPE, SIG_IGN);  // a killed server's sockets: an error, not a signal

  std::optional<std::filesystem::path> scratch;
  std::string db = o.db;
  if (o.port == 0 && db.empty()) {
    char dir[] = "/tmp/naqala-bench-serve-XXXXXX";
    if (!::mkdtemp(dir)) throw Error("bench serve: cannot make a temporary directory");
    scratch = dir;
    db = (*scratch / "load.db").string();
  }
  std::optional<ChildServer> child;
  Shared shared;
  shared.options = o;
  shared.at = {o.host, o.port};
  if (o.port == 0) {
    child.emplace(db);
    child->start();
    shared.at.port = child->port();
  }

  ServeLoadReport report;
  std::vector<std::unique_ptr<Table>> tables;
  std::vector<std::thread> threads;
  for (int i = 0; i < o.games; ++i) tables.push_back(std::make_unique<Table>(shared, i));
  for (auto& t : tables) threads.emplace_back([&t] { t->run(); });

  // Every table has its first game before the clock starts and the memory is read.
  while (shared.started + shared.failed < o.games)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  if (child) report.rss_start_kb = child->rss_kb();

  Rng rng(o.seed);
  // The kills fall at random moments: one in each of kills + 1 equal parts of the run, past
  // the part's first fifth.
  std::vector<double> kill_at;
  for (int k = 0; k < o.kills; ++k)
    kill_at.push_back((k + 0.2 + 0.8 * rng.uniform()) / (o.kills + 1));
  const auto start = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  auto done = [&] {
    // How far the run is, 0 to 1, by whichever limit is given.
    double f = 0;
    if (o.seconds > 0) f = std::max(f, elapsed() / o.seconds);
    if (o.moves > 0) f = std::max(f, static_cast<double>(shared.moves) / o.moves);
    return f;
  };
  auto next_report = start + std::chrono::seconds(5);
  while (done() < 1) {
    if (shared.failed > 0) break;
    if (report.kills < o.kills && done() >= kill_at[report.kills]) {
      child->kill9();
      ++report.kills;
      // Down for a moment that nobody's clock may lose.
      std::this_thread::sleep_for(kDownTime);
      shared.restart_begun = Clock::now().time_since_epoch().count();
      child->start();
    }
    if (o.progress && Clock::now() >= next_report) {
      next_report += std::chrono::seconds(5);
      char line[160];
      std::snprintf(line, sizeof line, "%.0f s: %ld moves, %d games over, %d kills", elapsed(),
                    shared.moves.load(), shared.games_over.load(), report.kills);
      o.progress(line);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  report.seconds = elapsed();
  if (child) report.rss_end_kb = child->rss_kb();
  shared.stop = true;
  // A player blocked on a read is woken by the server closing: stop it politely.
  if (child) child->stop(SIGTERM);
  for (auto& t : threads) t.join();
  {
    std::lock_guard lock(shared.mutex);
    if (!shared.errors.empty()) throw Error("bench serve: " + shared.errors.front());
  }
  if (child) child->start();  // the stored games, as a restarted server reads them

  std::vector<float> latencies;
  for (auto& t : tables) {
    latencies.insert(latencies.end(), t->latencies_ms.begin(), t->latencies_ms.end());
    for (const GameLog& log : t->logs) {
      ++report.games;
      const json view = checked(request(shared.at, http::verb::get, "/api/games/" + log.id),
                                "GET /api/games/" + log.id);
      const json& plies = view["plies"];
      for (std::size_t k = 0; k < log.acked.size(); ++k) {
        if (!log.known[k]) continue;
        ++report.checked;
        if (k < plies.size() && plies[k]["text"] == log.acked[k]) continue;
        ++report.missing;
        if (report.problems.size() < 10)
          report.problems.push_back("game " + log.id + " ply " + std::to_string(k) + ": " +
                                    log.acked[k] + " acknowledged, stored " +
                                    (k < plies.size() ? plies[k]["text"].dump() : "nothing"));
      }
    }
  }
  report.clocks_checked = shared.clocks_checked;
  report.clocks_wrong = shared.clocks_wrong;
  for (auto& p : shared.clock_problems)
    if (report.problems.size() < 20) report.problems.push_back(std::move(p));
  report.moves = shared.moves;
  report.games_over = shared.games_over;
  report.reconnects = shared.reconnects;
  report.p50_ms = percentile(latencies, 0.5);
  report.p99_ms = percentile(latencies, 0.99);
  report.max_ms = latencies.empty() ? 0 : *std::max_element(latencies.begin(), latencies.end());
  child.reset();
  if (scratch) {
    std::error_code ec;
    std::filesystem::remove_all(*scratch, ec);
  }
  return report;
}

}  // namespace naqala::cli
