#include "play/pairing.h"

#include <algorithm>
#include <numeric>
#include <string>

#include "core/error.h"

namespace naqala::play {

std::vector<std::vector<Pairing>> round_robin(int players, int cycles) {
  // Berger's tables: with n even, player n-1 stays put and the others turn round a circle.
  const int n = players + players % 2;
  std::vector<std::vector<Pairing>> rounds;
  for (int cycle = 0; cycle < cycles; ++cycle) {
    for (int r = 0; r < n - 1; ++r) {
      std::vector<Pairing> round;
      for (int i = 0; i < n / 2; ++i) {
        int a, b;
        if (i == 0) {  // the fixed player: South in odd rounds
          a = r % 2 == 0 ? r : n - 1;
          b = r % 2 == 0 ? n - 1 : r;
        } else {  // around the circle, colours alternate with the distance
          a = (r + i) % (n - 1);
          b = (r - i + n - 1) % (n - 1);
          if (i % 2 == 0) std::swap(a, b);
        }
        if (cycle % 2 == 1) std::swap(a, b);
        if (a >= players) a = kBye;
        if (b >= players) b = kBye;
        if (a == kBye) std::swap(a, b);
        round.push_back({a, b});
      }
      rounds.push_back(std::move(round));
    }
  }
  return rounds;
}

namespace {

// Whether `rounds` more rounds can still be paired with no repeat and fair byes, given who has
// met whom (results do not matter to that). Gives up, answering yes, when `budget` runs out.
class Lookahead {
 public:
  Lookahead(std::vector<std::vector<bool>> met, std::vector<int> byes, long& budget)
      : met_(std::move(met)), byes_(std::move(byes)), budget_(budget) {}

  bool completable(int rounds) {
    if (rounds == 0 || --budget_ < 0) return true;
    const int n = static_cast<int>(met_.size());
    std::vector<int> byes{kBye};
    if (n % 2 == 1) {
      byes.clear();
      const int fewest = *std::min_element(byes_.begin(), byes_.end());
      for (int p = n; p-- > 0;)
        if (byes_[p] == fewest) byes.push_back(p);
    }
    for (int bye : byes) {
      std::vector<bool> used(n, false);
      if (bye != kBye) {
        used[bye] = true;
        ++byes_[bye];
      }
      const bool ok = match(used, rounds);
      if (bye != kBye) --byes_[bye];
      if (ok) return true;
    }
    return false;
  }

 private:
  // Pairs the players not `used` with partners they have not met, then the later rounds.
  bool match(std::vector<bool>& used, int rounds) {
    if (--budget_ < 0) return true;
    const int n = static_cast<int>(met_.size());
    int a = 0;
    while (a < n && used[a]) ++a;
    if (a == n) return completable(rounds - 1);
    used[a] = true;
    for (int b = a + 1; b < n; ++b) {
      if (used[b] || met_[a][b]) continue;
      used[b] = true;
      met_[a][b] = met_[b][a] = true;
      const bool ok = match(used, rounds);
      met_[a][b] = met_[b][a] = false;
      used[b] = false;
      if (ok) {
        used[a] = false;
        return true;
      }
    }
    used[a] = false;
    return false;
  }

  std::vector<std::vector<bool>> met_;
  std::vector<int> byes_;
  long& budget_;  // shared by every look ahead of one round's search
};

class SwissPairer {
 public:
  SwissPairer(const std::vector<SwissPlayer>& players, std::vector<int> order, int bye, bool strict,
              int rounds_after)
      : p_(players),
        order_(std::move(order)),
        bye_(bye),
        strict_(strict),
        rounds_after_(rounds_after) {}

  bool pair(std::vector<Pairing>& out) {
    if (order_.empty()) return rounds_after_ == 0 || leaves_later_rounds(out);
    if (++steps_ > 200000) return false;  // a hopeless search: the caller relaxes or fails
    const int top = order_[0];
    // The top player's score group, in rank order.
    std::vector<int> group;
    for (int q : order_)
      if (p_[q].points == p_[top].points) group.push_back(q);
    const std::size_t half = group.size() / 2;
    std::vector<int> candidates;
    for (std::size_t i = std::max<std::size_t>(half, 1); i < group.size(); ++i)
      candidates.push_back(group[i]);
    for (std::size_t i = half; i-- > 1;) candidates.push_back(group[i]);
    for (int q : order_)  // then floating down into the lower groups
      if (p_[q].points != p_[top].points) candidates.push_back(q);
    for (int c : candidates) {
      if (met(top, c) || (strict_ && colours_clash(top, c))) continue;
      const std::vector<int> saved = order_;
      std::erase(order_, top);
      std::erase(order_, c);
      out.push_back(colours(top, c));
      if (pair(out)) return true;
      out.pop_back();
      order_ = saved;
    }
    return false;
  }

 private:
  bool met(int a, int b) const {
    const auto& o = p_[a].opponents;
    return std::find(o.begin(), o.end(), b) != o.end();
  }
  // A round that leaves no way to pair the rounds still to come is not taken.
  bool leaves_later_rounds(const std::vector<Pairing>& round) {
    const int n = static_cast<int>(p_.size());
    std::vector<std::vector<bool>> met(n, std::vector<bool>(n, false));
    std::vector<int> byes(n, 0);
    for (int a = 0; a < n; ++a) {
      for (int b : p_[a].opponents) met[a][b] = true;
      byes[a] = p_[a].had_bye;
    }
    for (const auto& [a, b] : round) met[a][b] = met[b][a] = true;
    if (bye_ != kBye) ++byes[bye_];
    return Lookahead(std::move(met), std::move(byes), lookahead_budget_).completable(rounds_after_);
  }
  // Both already two games ahead with the same colour: one of them would go three ahead.
  bool colours_clash(int a, int b) const {
    const int ca = p_[a].colour_balance, cb = p_[b].colour_balance;
    return (ca >= 2 && cb >= 2) || (ca <= -2 && cb <= -2);
  }
  // South to the player who has been South less often; then to the one who was North last;
  // then to the higher-ranked.
  Pairing colours(int a, int b) const {
    const auto& pa = p_[a];
    const auto& pb = p_[b];
    if (pa.colour_balance != pb.colour_balance)
      return pa.colour_balance < pb.colour_balance ? Pairing{a, b} : Pairing{b, a};
    if (pa.last_colour != pb.last_colour)
      return pa.last_colour < pb.last_colour ? Pairing{a, b} : Pairing{b, a};
    return {a, b};
  }

  const std::vector<SwissPlayer>& p_;
  std::vector<int> order_;
  int bye_;
  bool strict_;
  int rounds_after_;
  long steps_ = 0;
  long lookahead_budget_ = 1000000;
};

}  // namespace

std::vector<Pairing> swiss_round(const std::vector<SwissPlayer>& players, int rounds_after) {
  const int n = static_cast<int>(players.size());
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return players[a].points > players[b].points; });
  // Bye candidates from the bottom: first those who have had none.
  std::vector<int> fair, any;
  if (n % 2 == 1) {
    for (int i = n; i-- > 0;) {
      if (!players[order[i]].had_bye) fair.push_back(order[i]);
      any.push_back(order[i]);
    }
    if (fair.empty()) fair = any;
  } else {
    fair = any = {kBye};
  }
  // The most wanted first: strict colours and room for the later rounds; then each relaxed.
  struct Attempt {
    const std::vector<int>* byes;
    bool strict;
    int rounds_after;
  };
  for (const Attempt& at :
       {Attempt{&fair, true, rounds_after}, Attempt{&fair, false, rounds_after},
        Attempt{&fair, true, 0}, Attempt{&fair, false, 0}, Attempt{&any, false, 0}})
    for (int bye : *at.byes) {
      std::vector<int> rest = order;
      if (bye != kBye) std::erase(rest, bye);
      SwissPairer pairer(players, rest, bye, at.strict, at.rounds_after);
      std::vector<Pairing> out;
      if (pairer.pair(out)) {
        if (bye != kBye) out.push_back({bye, kBye});
        return out;
      }
    }
  throw Error("no Swiss pairing without a repeated pairing is left for " + std::to_string(n) +
              " players: play fewer rounds (at most " + std::to_string(n - 1 + n % 2) + ")");
}

namespace {

// Seeds in bracket order for a bracket of `size` (a power of two): 0, size-1, ... so that the
// sum of the two seeds of every first-round match is size-1.
std::vector<int> bracket(int size) {
  std::vector<int> b{0};
  while (static_cast<int>(b.size()) < size) {
    const int m = static_cast<int>(b.size()) * 2;
    std::vector<int> next;
    for (int s : b) {
      next.push_back(s);
      next.push_back(m - 1 - s);
    }
    b = std::move(next);
  }
  return b;
}

}  // namespace

std::vector<Pairing> knockout_first_round(int players) {
  int size = 1;
  while (size < players) size *= 2;
  const auto b = bracket(size);
  std::vector<Pairing> round;
  for (std::size_t i = 0; i + 1 < b.size(); i += 2) {
    const int a = b[i], c = b[i + 1];
    round.push_back({a, c < players ? c : kBye});
  }
  return round;
}

}  // namespace naqala::play
