#pragma once
// Engine tournaments (`naqala tournament`, docs/tournaments.md): every game played by the
// arena's game loop, saved as a game record under the output directory; a rerun with the same
// directory reads the games already played back from their records instead of playing them.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/arena.h"
#include "engine/engine.h"
#include "play/tournament.h"

namespace naqala::play {

struct EngineTournament {
  std::string variant;
  std::vector<std::string> engines;  // the entrants, by seed
  TournamentSettings settings;       // format, rounds, games per pairing (players and rules
                                     // are filled in from the engines and the variant)
  int opening_plies = 0;             // random plies from the start before each pair of games
  int setup_plies = -1;              // Omweso: random setup plies (engine::ArenaOptions)
  std::uint64_t seed = 1;            // of the openings and the dice
  engine::EngineGameOptions game;
  std::string out_dir;  // where the records go; "" keeps none (and cannot resume)
  // Builds an engine (engine::make_engine when unset).
  std::function<std::unique_ptr<engine::Engine>(const AnyGame&, const std::string&)> make_engine;
  // After each game: its slot, its result ("1-0", ...), and whether it was read back.
  std::function<void(const GameSlot&, const std::string&, bool)> progress;
};

struct EngineTournamentResult {
  TournamentResult tournament;
  int played_now = 0;  // games played by this run
  int read_back = 0;   // games read from records of an earlier run
};

// Throws Error when the directory holds another tournament or a record that does not fit.
EngineTournamentResult run_engine_tournament(const EngineTournament& t);

// The record file of a game under `out_dir`: round01-pairing02-game01.txt.
std::string game_record_path(const std::string& out_dir, const GameSlot& slot);

}  // namespace naqala::play
