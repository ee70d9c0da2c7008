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

}  // namespace naqala::engine
