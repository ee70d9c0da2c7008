#include "games/sowing/rules.h"

namespace naqala::sowing {

void Rules::finalize() {
  holes = 2 * pits + 2;
  total_seeds = 2 * pits * initial_seeds;
  row_mask = pits >= 8 ? ~0ULL : (1ULL << (8 * pits)) - 1;
  // The counter-clockwise ring seen from above: South's row left to right, South's store,
  // North's row (left to right from North's seat), North's store. Clockwise is its reverse,
  // and then each player's store sits on his left, between the rows' other ends.
  std::vector<int> ring;
  if (direction == Direction::Ccw) {
    for (int i = 0; i < pits; ++i) ring.push_back(i);
    ring.push_back(store(Player::South));
    for (int i = pits; i < 2 * pits; ++i) ring.push_back(i);
    ring.push_back(store(Player::North));
  } else {
    for (int i = pits - 1; i >= 0; --i) ring.push_back(i);
    ring.push_back(store(Player::South));
    for (int i = 2 * pits - 1; i >= pits; --i) ring.push_back(i);
    ring.push_back(store(Player::North));
  }
  for (Player p : {Player::South, Player::North}) {
    std::vector<int> cycle;
    for (int h : ring)
      if (is_pit(h) || sows_store(p, owner(h))) cycle.push_back(h);
    const int n = static_cast<int>(cycle.size());
    cycle_length[index(p)] = n;
    auto& nx = next[index(p)];
    auto& pv = prev[index(p)];
    nx.fill(0xff);
    pv.fill(0xff);
    for (int i = 0; i < n; ++i) {
      nx[cycle[i]] = static_cast<std::uint8_t>(cycle[(i + 1) % n]);
      pv[cycle[i]] = static_cast<std::uint8_t>(cycle[(i + n - 1) % n]);
    }
  }
}

}  // namespace naqala::sowing
