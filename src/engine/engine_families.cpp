#include "engine/engine_family.h"

namespace naqala::engine {

// Each family's registration, defined in its engine/<family>_engines.cpp. A new family adds
// its file, one declaration here and one line in the list.
EngineFamily sowing_engines();
EngineFamily backgammon_engines();
EngineFamily bao_engines();
EngineFamily omweso_engines();

const std::vector<EngineFamily>& engine_families() {
  static const std::vector<EngineFamily> families = {
      sowing_engines(),
      backgammon_engines(),
      bao_engines(),
      omweso_engines(),
  };
  return families;
}

}  // namespace naqala::engine
