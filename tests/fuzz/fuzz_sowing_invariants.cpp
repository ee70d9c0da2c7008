// A position and a list of moves, for every sowing preset: the input picks the preset, then
// one legal move per byte; after each ply the seeds are all there (pits, stores, a paused
// hand), the position text reads back as the same position and hash, and every move formats
// and parses back to itself. When the bytes run out, up to kRandomPlies random plies follow;
// an input plays at most kMaxPlies plies in all. Each ply's checks cost about 50 us (the text
// round trip is most of it), so the plies an input plays are the fuzzer's speed: with 64
// random plies after every input, they were 60% of the plies of the grown corpus (mean input
// 47 bytes), and 16 keep a tail of play past the bytes at a third of the cost. That games
// end is checked by the presets' random-game tests (Invariants.RandomGames...) and `naqala
// rules --check`: played to the end here, a multi-round game took thousands of plies and an
// input seconds, too slow to fuzz (tests/fuzz/README.md).
#include <algorithm>
#include <string>

#include "core/rng.h"
#include "fuzz_support.h"
#include "games/sowing/rules_toml.h"
#include "games/sowing/state.h"
#include "games/typed_state.h"

using namespace naqala;
using namespace naqala::sowing;

namespace {

constexpr std::size_t kRandomPlies = 16;
constexpr std::size_t kMaxPlies = 1024;

const std::vector<std::shared_ptr<const Rules>>& all_rules() {
  static const auto list = [] {
    std::vector<std::shared_ptr<const Rules>> out;
    for (const auto& p : presets()) out.push_back(load_rules(p.toml, std::string(p.name), {}));
    return out;
  }();
  return list;
}

int seeds_total(const State& s) {
  int sum = 0;
  for (int h = 0; h < s.rules().holes; ++h) sum += s.seeds(h);
  return sum + s.in_hand();
}

// The position text is written once a ply and the messages only on a failure: built eagerly,
// they wrote it five times a ply, half the harness's time.
void check_ply(const State& s) {
  const Rules& r = s.rules();
  const std::string text = s.position();
  if (s.phase() == State::Phase::Setup) {
    if (seeds_total(s) > r.total_seeds) fuzz::broken(r.name + ": seeds made in setup " + text);
  } else if (!s.is_over() || s.outcome().reason != EndReason::InfiniteSowing) {
    if (seeds_total(s) != r.total_seeds) fuzz::broken(r.name + ": seeds not conserved " + text);
  }
  const State back = State::from_position(r, text);
  if (back.position() != text || back.hash() != s.hash())
    fuzz::broken(r.name + ": position does not read back " + text);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const auto& rules = all_rules()[data[0] % all_rules().size()];
  TypedState<State> any(State::initial(*rules), rules);
  State::MoveList moves;
  std::uint64_t seed = 0x5eed;
  std::size_t i = 1;
  const std::size_t last_ply = std::min(size + kRandomPlies, kMaxPlies);
  for (std::size_t ply = 1; !any.typed().is_over() && ply < last_ply; ++ply) {
    const State& s = any.typed();
    check_ply(s);
    s.legal_moves(moves);
    if (moves.empty()) fuzz::broken(rules->name + ": no legal move, not over: " + s.position());
    std::uint32_t pick;
    if (i < size) {
      seed = seed * 31 + data[i];
      pick = data[i++] % moves.size();
    } else {
      static Rng rng(1);
      if (i++ == size) rng = Rng(seed);
      pick = rng.below(static_cast<std::uint32_t>(moves.size()));
    }
    const auto m = moves[pick];
    const std::string move_text = s.format_move(m);
    if (s.parse_move(move_text) != m)
      fuzz::broken(rules->name + ": move " + move_text + " does not parse back");
    any.play_typed(m);
  }
  check_ply(any.typed());
  return 0;
}
