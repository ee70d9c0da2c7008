#pragma once
// Bao la Kiswahili (`bao`) and Bao la Kujifunza (`bao-kujifunza`) in the registry.
#include "games/registry.h"

namespace naqala::bao {

GameFamily family();

}  // namespace naqala::bao
