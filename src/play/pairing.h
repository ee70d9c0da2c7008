#pragma once
// Pairings of a tournament round (docs/tournaments.md): round robin by Berger's tables, Swiss
// by score groups, knockout by a seeded bracket. Players are numbered by seed: 0 is the first
// entrant.
#include <vector>

namespace naqala::play {

constexpr int kBye = -1;

// `first` plays South in the pairing's first game (colours alternate in its later games);
// `second` is kBye when `first` sits the round out.
struct Pairing {
  int first = 0;
  int second = kBye;
};

// Every round of a round robin of `players`, `cycles` times (1 single, 2 double; each later
// cycle with colours reversed). With an odd number, each round one player rests (a kBye).
std::vector<std::vector<Pairing>> round_robin(int players, int cycles);

// What a Swiss pairing needs to know of each player after the rounds so far.
struct SwissPlayer {
  double points = 0;
  std::vector<int> opponents;  // every player already met
  int colour_balance = 0;      // games begun as South minus games begun as North
  int last_colour = 0;         // +1 South, -1 North, 0 none yet
  bool had_bye = false;
};

// The next Swiss round. Players sorted by points (then seed); the bye, with an odd number,
// goes to the lowest-ranked player who has not had one; then score groups from the top, the
// top half of a group against its bottom half, a player who cannot be paired in his group
// floating down. Never a repeated pairing; a player two colours ahead is not paired with
// another two colours ahead in the same direction while any other pairing exists, and a round
// that leaves no way to pair the `rounds_after` rounds still to come (without a repeat, with
// fair byes) is not chosen while another exists. Throws Error when no pairing without a repeat
// exists (more rounds than the players allow).
std::vector<Pairing> swiss_round(const std::vector<SwissPlayer>& players, int rounds_after = 0);

// The first round of a knockout of `players`: the bracket of the next power of two, seed 1
// against the lowest seed, the top seeds getting the byes, so that seeds 1 and 2 can meet
// only in the final. Later rounds pair the winners in bracket order: 0 v 1, 2 v 3, ...
std::vector<Pairing> knockout_first_round(int players);

}  // namespace naqala::play
