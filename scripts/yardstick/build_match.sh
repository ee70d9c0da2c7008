#!/bin/sh
# Links a yardstick program (aalina_match.cpp, engine_pipe.cpp) against a release build's
# libraries, so the binary keeps that build's engine: copy it to /tmp to compare builds.
# usage: scripts/yardstick/build_match.sh SOURCE.cpp OUTPUT [BUILD_DIR (default build/release)]
set -e
src=$1 out=$2 build=${3:-build/release}
[ -n "$src" ] && [ -n "$out" ] || { echo "usage: $0 SOURCE.cpp OUTPUT [BUILD_DIR]" >&2; exit 2; }
B=$build/src
# The opening book (engine/book.cpp) writes its files through naqala_play; older builds lack it.
play=
[ -f "$B/cli/libnaqala_play.a" ] && play=$B/cli/libnaqala_play.a
g++ -std=c++20 -O2 -Isrc "$src" -o "$out" \
  $B/engine/libnaqala_engine.a $B/search/libnaqala_bgsearch.a $B/eval/libnaqala_bgeval.a \
  $B/eval/libnaqala_eval.a $B/solve/libnaqala_solve.a $B/games/libnaqala_games.a \
  $B/games/sowing/libnaqala_sowing.a $B/games/bao/libnaqala_bao.a \
  $B/games/omweso/libnaqala_omweso.a $B/games/backgammon/libnaqala_backgammon.a \
  $B/games/libnaqala_game_api.a $play $B/libnaqala_core.a -ltomlplusplus -lfmt -lpthread
