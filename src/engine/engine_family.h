#pragma once
// Engines registered per game family, as games register in games/registry.h: each family's
// engine/<family>_engines.cpp says how its games are played (level:, alphabeta:, mcts:) and
// which level table it uses; engine_families.cpp lists the families once. make_engine and
// level_spec (engine.h) find a game's family by VariantInfo::family; no central if/else.
#include <memory>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/engine_spec.h"

namespace naqala::engine {

struct EngineFamily {
  std::string family;  // VariantInfo::family of the games these engines play
  // A `level:`, `alphabeta:` or `mcts:` engine for `game` (`random` plays every game and is
  // make_engine's own). Throws VariantError for an option the family refuses.
  std::unique_ptr<Engine> (*make)(const AnyGame& game, const EngineSpec& spec);
  // The table `level:N` reads for `game`.
  const LevelTable& (*levels)(const AnyGame& game);
  // Families whose levels are not alpha-beta levels say what level N is (level_spec()).
  std::string (*level_text)(int level) = nullptr;
  // Engine kinds of the family beyond level, alphabeta and mcts (backgammon: "net").
  std::vector<std::string> extra_kinds = {};
};

// Every registered family (engine_families.cpp), built once on first use.
const std::vector<EngineFamily>& engine_families();

}  // namespace naqala::engine
