#!/bin/sh
# gnubg's analysis of naqala's backgammon (issue 14's error rates): gnubg 0-ply (player 0)
# plays GAMES money games with the cube against naqala's ENGINE, connected as gnubg's external
# player (`naqala external`); gnubg then analyses the session at PLIES plies (chequer play and
# cube decisions) and prints its statistics for both players: the error rates in
# thousandths of a point (mEMG) per unforced chequer move and per close or actual cube
# decision. gnubg is the yardstick only: nothing it says goes back into naqala.
#
#   scripts/yardstick/bg_error_rates.sh [GAMES] [ENGINE] [SEED] [PLIES] [OUT_DIR]
#   nice -n 10 scripts/yardstick/bg_error_rates.sh 50 level:6 7 2 /tmp/bg-errors
#
# CHEQUER_PLIES (default PLIES) analyses the chequer play at other plies than the cube: the
# cube's 2-ply analysis is cheap, the chequer play's the costly part, so many games' cube
# error rate is CHEQUER_PLIES=0.
#
# Prints the two "Error rate mEMG" rows (chequer play, then cube) and the luck-adjusted result;
# OUT_DIR keeps gnubg's whole output (gnubg.log) and the session as a .mat file.
set -eu
games=${1:-50}
engine=${2:-level:6}
seed=${3:-7}
plies=${4:-2}
chequer_plies=${CHEQUER_PLIES:-$plies}
out=${5:-$(mktemp -d /tmp/bg-errors.XXXXXX)}
root=$(cd "$(dirname "$0")/../.." && pwd)
naqala=${NAQALA:-$root/build/release/naqala}
gnubg=${GNUBG:-/usr/games/gnubg}
case $games in '' | *[!0-9]* | 0) echo "GAMES must be a positive number, not '$games'" >&2; exit 2 ;; esac
case $plies in 0 | 1 | 2 | 3) ;; *) echo "PLIES is 0 to 3, not '$plies'" >&2; exit 2 ;; esac
case $chequer_plies in 0 | 1 | 2 | 3) ;; *) echo "CHEQUER_PLIES is 0 to 3, not '$chequer_plies'" >&2; exit 2 ;; esac
[ -x "$naqala" ] || { echo "no naqala at $naqala (make release, or set NAQALA)" >&2; exit 2; }
[ -x "$gnubg" ] || { echo "no gnubg at $gnubg (scripts/install-deps installs it)" >&2; exit 2; }
mkdir -p "$out"

# A free port: bind to port 0 and read what the kernel chose.
port=$(/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$naqala" external --port "$port" --engine "$engine" >"$out/external.log" 2>&1 &
external=$!
trap 'kill $external 2>/dev/null || true' EXIT INT TERM
# Wait until naqala listens (its first line says so).
tries=0
until grep -q "serving" "$out/external.log" 2>/dev/null; do
  tries=$((tries + 1))
  [ $tries -lt 600 ] || { echo "naqala external did not start:" >&2; cat "$out/external.log" >&2; exit 1; }
  kill -0 $external 2>/dev/null || { cat "$out/external.log" >&2; exit 1; }
  sleep 0.1
done

{
  echo "set player 0 gnubg"
  echo "set player 0 chequerplay evaluation plies 0"
  echo "set player 0 cubedecision evaluation plies 0"
  echo "set player 1 name naqala"
  echo "set player 1 external localhost:$port"
  echo "set jacoby off"
  echo "set automatic game off"
  echo "set automatic roll on"
  echo "set display off"
  echo "set seed $seed"
  # A new session plays its first game; each `new game` one more.
  echo "new session"
  i=1
  while [ $i -lt "$games" ]; do echo "new game"; i=$((i + 1)); done
  echo "export match mat $out/session.mat"
  echo "set analysis chequerplay evaluation plies $chequer_plies"
  echo "set analysis cubedecision evaluation plies $plies"
  echo "analyse match"
  echo "show statistics match"
} >"$out/cmds.txt"
"$gnubg" -t -q -r <"$out/cmds.txt" >"$out/gnubg.log" 2>&1

played=$(grep -c '^ *Game [0-9]' "$out/session.mat" || true)
echo "naqala $engine (player 1) against gnubg 0-ply (player 0): $played money games, seed $seed," \
  "analysed by gnubg at $plies plies (chequer play at $chequer_plies) ($out)"
awk '
  /^Player  / { print; next }
  /^Chequerplay statistics/ { part = "chequer" } /^Cube statistics/ { part = "cube" }
  /^Overall statistics/ { part = "overall" } /^Luck statistics/ { part = "luck" }
  /^Unforced moves|^Close or actual cube decisions/ { print }
  /^Error rate mEMG/ && part != "luck" { print part ": " $0 }
  /^Advantage|^95% confidence|^Luck adjusted result|^Actual result/ && part == "overall" { print }
' "$out/gnubg.log"
