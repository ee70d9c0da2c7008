#pragma once
// The hub: every live game of the server, its clocks, its computer opponent, and the clients
// watching it. All of it runs on one io_context thread (no locks); only the engines think on
// a thread pool and post their moves back.
//
// The hub is authoritative: a move is checked against the rules, charged to the mover's
// clock, committed to the store, and only then broadcast.
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>  // before Asio: Boost 1.74 uses std::exchange without it
#include <vector>

#include "core/rng.h"
#include "engine/engine.h"
#include "games/any_game.h"
#include "server/fields.h"
#include "server/store.h"
#include "solve/sowing_db.h"

namespace naqala::server {

using json = nlohmann::json;

// One WebSocket connection as the hub sees it.
class Client {
 public:
  virtual ~Client() = default;
  // Never calls back into the hub, so a caller may send while walking a watcher set.
  virtual void send(std::shared_ptr<const std::string> text) = 0;
  std::optional<std::int64_t> player;
  std::string player_name;
  std::string token_hash;  // of the token its hello gave, checked against sign-outs
  std::set<std::string> watching;
  std::set<std::string> watching_tournaments;
};

// What another part of the server (tournaments) adds to the hub: it hears of every game that
// ends, and answers the WebSocket message types the hub does not know.
class HubExtension {
 public:
  virtual ~HubExtension() = default;
  // A game is over (called from the io_context, after the hub is done with it).
  virtual void game_over(const GameRow& row) = 0;
  // Returns false when the type is not the extension's either.
  virtual bool handle(Client& client, const std::string& type, const json& message) = 0;
  virtual void disconnect(Client& client) = 0;
  virtual const char* message_types() const = 0;  // ", watch_tournament, ..."
};

class Hub {
 public:
  Hub(boost::asio::io_context& io, Store& store, int engine_threads = 1);
  ~Hub();

  // Reloads every unfinished game from the store (after a restart): replays its moves and
  // restarts its clocks where the last committed move left them.
  void load_unfinished();

  // HTTP API. Each returns the JSON body or throws ApiError.
  json variants();
  json rules(const std::string& spec) const;
  json create_player(const json& body);
  json create_game(const json& body);
  json list_games();
  json game(const std::string& id, const std::string& token);
  std::string record(const std::string& id);
  json review(const std::string& id);
  // What an endgame database (with a short search on top) proves of the position after `ply`
  // plies: "known" false when no database holds it or the search did not settle it.
  json analysis(const std::string& id, int ply);

  // Endgame databases of sowing rulesets (naqala solve VARIANT --build-db K) the analysis
  // uses; throws naqala::Error when the file is not one.
  void add_endgame_db(const std::string& path);

  // A WebSocket message; answers and broadcasts go through Client::send.
  void handle(Client& client, std::string_view message);
  void disconnect(Client& client);

  // Stops timers and waits for thinking engines (before the io_context goes away).
  void shutdown();

  void set_extension(HubExtension* extension) { extension_ = extension; }
  // The player a token belongs to; require_player: the body's "token" player, or ApiError 401.
  std::optional<PlayerRow> player_of(const std::string& token);
  PlayerRow require_player(const json& body);
  // Tokens signed out (by their hashes): connections that said hello with one are refused from
  // their next message on.
  void signed_out(const std::vector<std::string>& token_hashes);
  // A fresh game id, then a game started at once with both seats taken (a tournament's):
  // `extra` is kept with the game (and shown in its view as "tournament" when it has one).
  std::string fresh_id();
  void start_seated_game(const std::string& id, const std::string& variant, json seats, json clock,
                         json extra);

 private:
  struct Live;
  Live& live(const std::string& id);  // loads a finished game on demand; ApiError 404
  Live& open_game(const GameRow& row, const std::vector<MoveRow>& moves);

  json view(const Live& g) const;
  void broadcast(Live& g);
  void send_view(Client& c, Live& g);

  void forget(const std::string& id, Client& c);  // c stops watching game id
  void release_if_idle(const std::string& id);
  std::optional<Player> seat_of(const Live& g, const Client& c) const;
  void play_move(Live& g, Player side, const std::string& move, bool charge_clock = true);
  void roll_dice(Live& g, std::vector<MoveRow>& plies);
  void finish(Live& g, std::optional<Player> winner, const std::string& reason);
  void after_change(Live& g);  // clocks, computer, end of game, match, broadcast
  void arm_timer(Live& g);
  void on_timer(const std::string& id);
  void retry_soon(Live& g);  // a write the database refused is tried again by on_timer
  void send_error(Client& c, const ApiError& e, const std::string& request);
  void think(Live& g, Player mover);
  void choose_joint(Live& g, Player side, const std::string& half);
  bool clock_runs(const Live& g, Player side) const;
  std::int64_t remaining_ms(const Live& g, Player side) const;
  std::int64_t turn_elapsed_ms(const Live& g) const;
  void start_next_game(Live& g);
  void start_seated(GameRow& row, const std::string& variant, json seats, json clock, json extra);
  std::string new_game_from(const Live& g, json seats, std::optional<std::int64_t> match_id,
                            int match_game);

  void on_join(Client& c, Live& g);
  void on_draw(Client& c, Live& g, const std::string& what);
  void on_rematch(Client& c, Live& g);

  boost::asio::io_context& io_;
  Store& store_;
  boost::asio::thread_pool engines_;
  std::map<std::string, std::unique_ptr<Live>> games_;
  Rng rng_;
  bool stopping_ = false;
  std::map<std::string, bool> computer_plays_;  // family -> an engine plays it
  std::vector<std::shared_ptr<const solve::SowingDb>> endgame_dbs_;
  HubExtension* extension_ = nullptr;
  std::set<std::string> signed_out_;  // token hashes signed out while this server runs
};

// Hex SHA-1 of a token: what the store keeps instead of the token itself.
std::string token_hash(const std::string& token);

}  // namespace naqala::server
