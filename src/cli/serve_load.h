#pragma once
// `naqala bench serve`: a load test of `naqala serve` (docs/server.md, "Load and faults").
// Every game is two people, each on its own WebSocket, playing random legal moves as fast as
// the server acknowledges them; a finished game is replaced by a new one. The server is this
// binary started as a child process on a fresh database (or one already running, named by
// host and port). With kills, the child is killed with SIGKILL at random moments and started
// again on the same database; the players reconnect, check that each game's clocks resume as
// stored, and go on. At the end every move a player saw acknowledged is looked up in the stored
// games.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace naqala::cli {

struct ServeLoadOptions {
  int games = 500;
  double seconds = 600;  // 0: no time limit
  long moves = 0;        // stop after this many acknowledged moves (0: no limit)
  int kills = 0;         // SIGKILL and restart the child server this many times
  std::string variant = "kalah";
  std::string host = "127.0.0.1";
  unsigned short port = 0;  // a running server's port; 0: start one as a child
  std::string db;           // the child's database (default: a file in a fresh temporary dir)
  std::uint64_t seed = 1;
  std::function<void(const std::string&)> progress;  // a line every few seconds
};

struct ServeLoadReport {
  int games = 0;                              // games created
  int games_over = 0;                         // of them, ended by the rules during the run
  long moves = 0;                             // moves acknowledged to their player
  double seconds = 0;                         // wall time of the playing
  double p50_ms = 0, p99_ms = 0, max_ms = 0;  // move sent -> acknowledged
  long rss_start_kb = -1;  // the child's resident memory once every game is going...
  long rss_end_kb = -1;    // ... and at the end (-1: not our child)
  int kills = 0;
  int reconnects = 0;                 // WebSocket connections made again after losing the server
  long checked = 0;                   // acknowledged moves looked up in the stored games
  long missing = 0;                   // ... not found there, or found different
  long clocks_checked = 0;            // games looked at again after a kill, with their clocks
  long clocks_wrong = 0;              // ... whose clocks did not resume as stored
  std::vector<std::string> problems;  // the first few differences, in words
};

// Throws naqala::Error when the server cannot be started or reached.
ServeLoadReport run_serve_load(const ServeLoadOptions& options);

}  // namespace naqala::cli
