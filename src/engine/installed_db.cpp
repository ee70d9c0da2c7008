#include "engine/installed_db.h"

#include <cstdlib>
#include <filesystem>

#include "core/data_dir.h"
#include "core/error.h"
#include "eval/pit_table.h"

namespace naqala::engine {

std::shared_ptr<const solve::EndgameDb> installed_kalah_db(const std::string& preset,
                                                           const solve::KalahRules& rules,
                                                           std::string& source) {
  const std::string variable = eval::preset_variable(preset, "DB");
  if (const char* env = std::getenv(variable.c_str()); env && *env) {
    if (std::string(env) == "none") return nullptr;
    source = std::string(env) + " (named by " + variable + ")";
    try {
      return solve::load_db_once(env);
    } catch (const Error& e) {
      throw Error(std::string(e.what()) + "; " + variable + " names it (" + variable +
                  "=none: no database)");
    }
  }
  const std::filesystem::path dir = data_dir() + "/" + preset + "/db";
  std::error_code error;
  if (!std::filesystem::is_directory(dir, error)) return nullptr;
  for (int seeds = 254; seeds > 0; --seeds) {
    const auto path = dir / solve::default_db_name(rules, seeds);
    if (std::filesystem::exists(path, error)) {
      source = path.string();
      return solve::load_db_once(source);
    }
  }
  return nullptr;
}

std::shared_ptr<const solve::EndgameDb> named_or_installed_kalah_db(const AnyGame& game,
                                                                    const solve::KalahRules& rules,
                                                                    const std::string& file,
                                                                    std::string& source) {
  std::shared_ptr<const solve::EndgameDb> db;
  if (!file.empty()) {
    source = file;
    db = solve::load_db_once(file);
  } else {
    db = installed_kalah_db(game.info().name, rules, source);
  }
  if (db && db->rules() != rules)
    throw Error("the database " + source + " was built for other Kalah rules than " + game.spec());
  return db;
}

}  // namespace naqala::engine
