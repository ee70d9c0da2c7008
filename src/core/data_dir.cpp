#include "core/data_dir.h"

namespace naqala {

const std::string& data_dir() {
  static const std::string dir = NAQALA_DATA_DIR;
  return dir;
}

}  // namespace naqala
