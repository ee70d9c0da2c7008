#include "games/sowing/rules.h"

namespace naqala::sowing {

void Rules::finalize() {
  const int n = pits;
  all_pits = rows * n;
  north_first = (rows - 1) * n;
  holes = rows * n + 2;
  total_seeds = rows * n * initial_seeds;
  row_mask = n >= 8 ? ~0ULL : (1ULL << (8 * n)) - 1;
  // The counter-clockwise ring seen from above: South's row left to right, South's store,
  // North's row (left to right from North's seat), North's store. Clockwise is its reverse,
  // and then each player's store sits on his left, between the rows' other ends.
  std::vector<int> ring;
  const int north = first_pit(Player::North);
  if (rows == 3) {
    // Gabata (docs/games/gabata.md): South's row 1..6, South's half of the middle row from column 6
    // to 4, North's row (from his left), North's half of the middle row from column 1 to 3.
    for (int i = 0; i < n; ++i) ring.push_back(i);
    for (int c = n - 1; c >= n / 2; --c) ring.push_back(n + c);
    ring.push_back(store(Player::South));
    for (int i = 0; i < n; ++i) ring.push_back(north + i);
    for (int c = 0; c < n / 2; ++c) ring.push_back(n + c);
    ring.push_back(store(Player::North));
  } else if (direction == Direction::Ccw) {
    for (int i = 0; i < n; ++i) ring.push_back(i);
    ring.push_back(store(Player::South));
    for (int i = n; i < 2 * n; ++i) ring.push_back(i);
    ring.push_back(store(Player::North));
  } else {
    for (int i = n - 1; i >= 0; --i) ring.push_back(i);
    ring.push_back(store(Player::South));
    for (int i = 2 * n - 1; i >= n; --i) ring.push_back(i);
    ring.push_back(store(Player::North));
  }
  north_owned = 0;
  for (int h = 0; h < rows * n; ++h) {
    bool is_north = h >= north;
    if (rows == 3 && h >= n && h < 2 * n)
      is_north = h - n < n / 2;  // middle: North owns columns 1..3
    if (is_north) north_owned |= 1u << h;
    column[h] = static_cast<std::uint8_t>(h < n ? h : h < 2 * n ? h - n : n - 1 - (h - north));
  }
  for (Player p : {Player::South, Player::North}) {
    std::vector<int> cycle;
    for (int h : ring)
      if (is_pit(h) || sows_store(p, owner(h))) cycle.push_back(h);
    const int len = static_cast<int>(cycle.size());
    cycle_length[index(p)] = len;
    auto& nx = next[index(p)];
    auto& pv = prev[index(p)];
    nx.fill(0xff);
    pv.fill(0xff);
    for (int i = 0; i < len; ++i) {
      nx[cycle[i]] = static_cast<std::uint8_t>(cycle[(i + 1) % len]);
      pv[cycle[i]] = static_cast<std::uint8_t>(cycle[(i + len - 1) % len]);
    }
    // Labels: the player's own pits along his path from his pit 1, then the other pits he
    // could come to own (the opponent's row, numbered n+1.. from the opponent's left).
    auto& lh = label_hole[index(p)];
    auto& hl = hole_label[index(p)];
    hl.fill(-1);
    int k = 0;
    const int mine = first_pit(p);
    if (rows == 3) {
      for (int i = 0; i < n; ++i) lh[k++] = static_cast<std::uint8_t>(mine + i);
      if (p == Player::South)
        for (int c = n - 1; c >= n / 2; --c) lh[k++] = static_cast<std::uint8_t>(n + c);
      else
        for (int c = 0; c < n / 2; ++c) lh[k++] = static_cast<std::uint8_t>(n + c);
    } else {
      for (int i = 0; i < n; ++i) lh[k++] = static_cast<std::uint8_t>(mine + i);
      for (int i = 0; i < n; ++i) lh[k++] = static_cast<std::uint8_t>(first_pit(opponent(p)) + i);
    }
    // Only Nam-Nam's rounds hand the opponent's pits over; elsewhere a player sows his own.
    labels = rows == 2 && rounds != RoundKind::NamNam ? n : k;
    for (int i = 0; i < k; ++i) hl[lh[i]] = static_cast<std::int8_t>(i);
  }
  for (int c = 0; c < 32; ++c)
    if ((count_mask >> c) & 1) capturable[c] = true;
  vector_sow = holes <= kVectorHoles && skip_full == 0;
#if !defined(__SSE2__)
  vector_sow = false;  // the vector play sums and compares with SSE2 (x86-64's baseline)
#endif
  if (vector_sow) {
    for (int h = 0; h < holes; ++h) hole_cell[h][h] = 0xff;
    for (Player owner : {Player::South, Player::North})
      for (int i = 0; i < n; ++i) {
        const int p = index(owner), origin = first_pit(owner) + i;
        VectorSowing& v = vector_sowing[origin];
        Cells16 first{};
        for (int h = 0; h < holes; ++h)
          if (next[p][h] != 0xff && !(skip_origin && h == origin)) v.lap[h] = 0xff;
        v.first[0] = first;
        v.lap_length = cycle_length[p] - (skip_origin ? 1 : 0);
        int hole = origin;
        for (int k = 1; k <= v.lap_length; ++k) {
          hole = next[p][hole];
          if (skip_origin && hole == origin) hole = next[p][hole];
          first[hole] = 1;
          v.first[k] = first;
          v.landing[k] = static_cast<std::uint8_t>(hole);
        }
      }
  }
  count_list_size = 0;
  bool listed = true;
  for (int c = 1; c <= kMaxSeedsPerHole && !even; ++c)
    if (capturable[c]) {
      if (count_list_size == static_cast<int>(count_list.size()))
        listed = false;
      else
        count_list[count_list_size++] = static_cast<std::uint8_t>(c);
    }
  vector_play = vector_sow && !general && tuz == TuzKind::None && rows == 2 && listed;
  random_by_mask = vector_play && min_seeds == 1 && grand_slam != GrandSlam::Forbidden;
  if (vector_play) {
    for (Player p : {Player::South, Player::North}) {
      row_bits[index(p)] = ((1u << n) - 1) << first_pit(p);
      for (int i = 0; i < n; ++i) row_cells[index(p)][first_pit(p) + i] = 0xff;
    }
    for (int h = 0; h < holes; ++h) {
      opposite_hole[h] = static_cast<std::uint8_t>(is_pit(h) ? opposite(h) : h);
      capture_cells[1][h] =
          hole_cell[opposite_hole[h]] | (with_last_seed ? hole_cell[h] : Cells16{});
    }
  }
  for (int mask = 0; mask < 256; ++mask) {
    int k = 0;
    for (int i = 0; i < 8; ++i)
      if ((mask >> i) & 1) nth_pit[mask][k++] = static_cast<std::uint8_t>(i);
    pit_count_of[mask] = static_cast<std::uint8_t>(k);
  }
}

}  // namespace naqala::sowing
