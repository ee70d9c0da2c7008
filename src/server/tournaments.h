#pragma once
// Tournaments on the server (docs/server.md): an organiser creates one, players (and computer
// levels) enter, and from its start the pairings of src/play/ are published round by round,
// each game started by itself through the hub. Everything lives in the store: the entrants,
// and the game played in each slot of the draw; the rounds, pairings and standings are
// recomputed from the games' results (play::tournament_progress), so a restart in the middle
// of a round loses nothing and pairs nobody twice.
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>  // before Asio: Boost 1.74 uses std::exchange without it

#include "server/hub.h"
#include "server/store.h"

namespace naqala::server {

class Tournaments : public HubExtension {
 public:
  Tournaments(boost::asio::io_context& io, Store& store, Hub& hub);
  ~Tournaments() override;

  // After the hub has reloaded its games: starts the games a round still lacks (a restart
  // between two rounds) and arms the start times.
  void load();
  void shutdown();

  // HTTP API; each returns the JSON body or throws ApiError.
  json create(const json& body);                        // POST /api/tournaments
  json list();                                          // GET /api/tournaments
  json get(const std::string& id);                      // GET /api/tournaments/ID
  json join(const std::string& id, const json& body);   // POST /api/tournaments/ID/join
  json start(const std::string& id, const json& body);  // POST /api/tournaments/ID/start
  json standings(const std::string& id);                // GET .../standings
  std::string standings_csv(const std::string& id);     // GET .../standings.csv
  json records(const std::string& id);                  // GET .../records

  // HubExtension
  void game_over(const GameRow& row) override;
  bool handle(Client& client, const std::string& type, const json& message) override;
  void disconnect(Client& client) override;
  const char* message_types() const override { return ", watch_tournament, unwatch_tournament"; }

 private:
  TournamentRow require(const std::string& id);
  // Starts an open tournament now; ApiError 409 saying why it cannot.
  void begin(TournamentRow& t);
  // Starts the games the round under way lacks, ends the tournament when its last game is
  // over, and tells the watchers. Idempotent: everything is read from the store.
  void advance(const std::string& id);
  void arm_start(const TournamentRow& t);
  void push(const std::string& id);
  std::string fresh_id();

  boost::asio::io_context& io_;
  Store& store_;
  Hub& hub_;
  std::map<std::string, std::unique_ptr<boost::asio::steady_timer>> start_timers_;
  std::map<std::string, std::set<Client*>> watchers_;
  bool stopping_ = false;
};

}  // namespace naqala::server
