#pragma once
// The help `naqala play` prints: how moves are written in this game and the commands.
#include <string>

#include "games/any_game.h"

namespace naqala::cli {

std::string play_help(const AnyGame& game);

}  // namespace naqala::cli
