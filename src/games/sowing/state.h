#pragma once
// A position of a two-row sowing game, and the one engine that plays every ruleset: the class
// (state_class.h) and its inline fast path, each concern in its file (sowing.h: sowing and
// laps; capture.h: captures; turn.h: moves, turns, the end). The state is a small value
// (copy = undo); the rules are shared and read-only.
#include "games/sowing/capture.h"
#include "games/sowing/sowing.h"
#include "games/sowing/state_class.h"
#include "games/sowing/turn.h"
