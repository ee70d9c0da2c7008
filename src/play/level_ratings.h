#pragma once
// The computer levels' ratings (docs/tournaments.md, "The levels' ratings"): a round robin of
// `level:N` entrants (`naqala tournament VARIANT --format roundrobin --engine level:1 ...
// --level-ratings FILE`) fitted on the Glicko-2 scale, shipped as data/level-ratings.json and
// shown beside the levels in the lobby, so that a newcomer knows which level to pick.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "play/standings.h"

namespace naqala::play {

// N for "level:N" (1-10), else 0.
int level_of(const std::string& engine_spec);

// Throws Error unless every entrant is `level:N` (checked before a long run, and again below).
void check_level_entrants(const std::vector<std::string>& engines);

// One variant's entry: {variant, command, seed, games, levels: [{level, rating, deviation,
// games}]} in level order. Each rating is 1500 plus the level's Elo estimate (the levels'
// average is 1500: the fit fixes only differences), the deviation the estimate's standard
// error.
nlohmann::json level_ratings_entry(const std::string& variant,
                                   const std::vector<std::string>& engines,
                                   const Standings& standings, int games,
                                   const std::string& command, std::uint64_t seed);

// The file: an object keyed by variant. A missing file is an empty object; anything else that
// is not such an object throws Error naming the file.
nlohmann::json read_level_ratings(const std::string& path);

// Adds (or replaces) the entry's variant in the file, written whole.
void save_level_ratings(const std::string& path, const nlohmann::json& entry);

// The shipped file, data/level-ratings.json (NAQALA_LEVEL_RATINGS overrides it).
std::string shipped_level_ratings_path();

}  // namespace naqala::play
