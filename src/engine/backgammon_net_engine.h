#pragma once
// The neural backgammon engine: checker plays by the n-ply search over the networks
// (search/backgammon_ply.h), cube actions by the cube rules of eval/backgammon_cube.h fed
// with the network's probabilities. `level:N` and `net:...` specs make it.
#include <cstdint>
#include <memory>
#include <string>

#include "engine/engine.h"
#include "search/backgammon_ply.h"

namespace naqala::engine {

struct NetEngineConfig {
  bgsearch::Config search;
  int cube_plies = 0;  // plies of the on-roll evaluation behind cube decisions
};

// Level N (1..10) of the neural engine: plies, noise, filters and an evaluation budget
// (docs/engines.md, "Backgammon levels").
NetEngineConfig backgammon_level(int level);
// The `net:` spec text of a level, for level_spec().
std::string backgammon_level_text(int level);

std::unique_ptr<Engine> make_backgammon_net_engine(std::string name, const NetEngineConfig& config);

}  // namespace naqala::engine
