#include "games/any_game.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/alarm.h"
#include "core/error.h"

namespace naqala {

nlohmann::json to_json(const VariantInfo& v) {
  nlohmann::json options = nlohmann::json::array();
  for (const auto& o : v.options)
    options.push_back({{"name", o.name},
                       {"help", o.help},
                       {"type", o.type},
                       {"default", o.default_value},
                       {"allowed", o.allowed}});
  return {{"name", v.name},       {"title", v.title},     {"family", v.family},
          {"summary", v.summary}, {"aliases", v.aliases}, {"options", options}};
}

void AnyState::apply_chance(std::string_view) {
  throw IllegalMoveError("this game has no chance events");
}

std::string AnyState::sample_chance(Rng&) const {
  throw IllegalMoveError("this game has no chance events");
}

std::vector<std::string> AnyState::joint_halves(Player side) const {
  std::vector<std::string> out;
  if (!joint_pending()) return out;
  for (const auto& m : legal_moves()) {
    const auto plus = m.find('+');
    if (plus == std::string::npos) continue;
    std::string half = side == Player::South ? m.substr(0, plus) : m.substr(plus + 1);
    if (std::find(out.begin(), out.end(), half) == out.end()) out.push_back(half);
  }
  return out;
}

std::vector<std::uint64_t> AnyState::perft(int depth) const {
  std::vector<std::uint64_t> counts(depth, 0);
  // Generic and slow: through text moves. TypedState overrides it.
  auto walk = [&](auto&& self, const AnyState& s, int ply) -> void {
    if (ply == depth || s.is_over()) return;
    if (s.is_chance_node()) {
      for (const auto& c : s.chance_outcomes()) {
        auto next = s.clone();
        next->apply_chance(c.outcome);
        self(self, *next, ply);
      }
      return;
    }
    for (const auto& m : s.legal_moves()) {
      auto next = s.clone();
      next->play(m);
      ++counts[ply];
      self(self, *next, ply + 1);
    }
  };
  walk(walk, *this, 0);
  return counts;
}

RandomPlayStats AnyState::play_random(std::uint64_t seed, double seconds) const {
  Rng rng(seed);
  RandomPlayStats stats;
  const Alarm alarm(seconds);
  do {
    auto s = clone();
    while (!s->is_over()) {
      if (s->is_chance_node()) {
        s->apply_chance(s->sample_chance(rng));
        continue;
      }
      auto moves = s->legal_moves();
      s->play(moves[rng.below(static_cast<std::uint32_t>(moves.size()))]);
      ++stats.plies;
      if (alarm.rang()) {
        stats.unfinished = !s->is_over();
        stats.games += s->is_over();
        return stats;
      }
    }
    ++stats.games;
  } while (!alarm.rang());
  return stats;
}

std::string join_moves(const std::vector<std::string>& moves) {
  if (moves.empty()) return "(none)";
  // Moves with spaces in them (backgammon's "24/18 13/11") are separated by commas.
  const bool spaced = std::any_of(moves.begin(), moves.end(), [](const std::string& m) {
    return m.find(' ') != std::string::npos;
  });
  std::string out;
  for (const auto& m : moves) {
    if (!out.empty()) out += spaced ? ", " : " ";
    out += m;
  }
  return out;
}

}  // namespace naqala
