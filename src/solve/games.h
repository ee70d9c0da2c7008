#pragma once
// The two kinds of move generators the retrograde engine (solve/retro.h) runs on: Kalah's
// own sowing kernel (solve/kalah.h), and any fast-path ruleset of the sowing engine played by
// sowing::State itself, so that every option (must-feed, grand slam rules, the 12+ skip,
// captures by counts, ...) is the engine's own code.
#include "games/sowing/state.h"
#include "solve/kalah.h"
#include "solve/retro.h"

namespace naqala::solve {

// Kalah-like rules: no cycle inside a level (solve/kalah_db.h).
class KalahGame {
 public:
  static constexpr bool kAcyclic = true;
  explicit KalahGame(const KalahRules& rules) : rules_(rules) {}

  template <class F>
  bool expand(const Board& b, int n, int& value, F&& f) const {
    const int mine = b.row(0), theirs = b.row(1);
    if (mine == 0 || theirs == 0) {  // over: each player takes his own pits
      value = mine - theirs;
      return false;
    }
    for (int i = 0; i < rules_.pits; ++i) {
      if (b.pit[i] == 0) continue;
      retro::Step s;
      s.child = b;
      const Sowing sown = sow(rules_, s.child, i);
      s.left = n - sown.gained;  // n = b.seeds(), known already
      if (sown.over) {
        s.over = true;
        s.gain = sown.gained + s.child.row(0) - s.child.row(1);
      } else {
        s.gain = sown.gained;
        s.extra = sown.extra;
        if (!sown.extra) s.child.flip();
      }
      if (!f(s)) break;
    }
    return true;
  }

 private:
  KalahRules rules_;
};

// Any fast-path two-row ruleset of up to 8 pits a row, played by sowing::State (as South,
// stores empty; `rules` must be played to the end: no threshold).
class StateGame {
 public:
  static constexpr bool kAcyclic = false;
  explicit StateGame(const sowing::Rules& rules) : rules_(rules), pits_(rules.pits) {}

  template <class F>
  bool expand(const Board& b, int n, int& value, F&& f) const {
    std::uint8_t cells[sowing::kMaxHoles];  // from_pits reads the pits of both rows
    // db_rules() admits at most 8 pits a row; said here, GCC stops warning of an overflow.
    if (pits_ > 8) __builtin_unreachable();
    for (int i = 0; i < pits_; ++i) {
      cells[i] = b.pit[i];
      cells[pits_ + i] = b.pit[8 + i];
    }
    const sowing::State s = sowing::State::from_pits(rules_, cells, Player::South);
    if (s.is_over()) {
      value = s.store(Player::South) - s.store(Player::North);
      return false;
    }
    sowing::State::MoveList moves;
    s.legal_moves(moves);
    for (const auto m : moves) {
      sowing::State c = s;
      c.play(m);
      retro::Step step;
      const int south = c.store(Player::South), north = c.store(Player::North);
      step.gain = south - north;
      step.left = n - south - north;
      if (c.is_over()) {
        step.over = true;
      } else {
        step.extra = c.to_move() == Player::South;
        const Player me = step.extra ? Player::South : Player::North;
        for (int i = 0; i < pits_; ++i) {
          step.child.pit[i] = static_cast<std::uint8_t>(c.pit(me, i));
          step.child.pit[8 + i] = static_cast<std::uint8_t>(c.pit(opponent(me), i));
        }
      }
      if (!f(step)) break;
    }
    return true;
  }

 private:
  const sowing::Rules& rules_;
  int pits_;
};

}  // namespace naqala::solve
