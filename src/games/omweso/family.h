#pragma once
// Omweso (`omweso`, standard) and S0's reading (`omweso-s0`) in the registry.
#include "games/registry.h"

namespace naqala::omweso {

GameFamily family();

}  // namespace naqala::omweso
