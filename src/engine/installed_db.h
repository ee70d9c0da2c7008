#pragma once
// The Kalah endgame database installed for a preset (docs/engines.md, "Playing from a Kalah
// database"): what the engines that play their best move, `naqala solve` and `analyze --prove`
// read when no database is named.
#include <memory>
#include <string>

#include "games/any_game.h"
#include "solve/kalah_db.h"

namespace naqala::engine {

// The file NAQALA_<PRESET>_DB names (`none`: none), else the one of the largest K in
// data/<preset>/db/ named as `naqala solve VARIANT --build-db K` names it
// (kalah-6pits-24seeds.db), else none (null). `source` is set to where it came from, for
// messages. A missing, damaged or truncated file named by the variable is refused, naming it.
std::shared_ptr<const solve::EndgameDb> installed_kalah_db(const std::string& preset,
                                                           const solve::KalahRules& rules,
                                                           std::string& source);

// The Kalah database an engine or a command reads: `file` (db=, --db) when given, else the one
// installed for the game's preset (above), else null (the caller builds one in memory or plays
// without). `source` is set to the file's name. A database of other rules is refused.
std::shared_ptr<const solve::EndgameDb> named_or_installed_kalah_db(const AnyGame& game,
                                                                    const solve::KalahRules& rules,
                                                                    const std::string& file,
                                                                    std::string& source);

}  // namespace naqala::engine
