#pragma once
// An independent, deliberately plain Bao mover for the tests: pits addressed by (row, column),
// the rules written out from RULES.md sections 8-9 step by step, endless relays cut by a
// plain step limit. It knows only the default options (R11 and R12 of docs/games/bao.md
// included). It produces the positions that follow
// each legal decision, in the position text of docs/games/bao.md, so the engine can be checked
// against it move by move.
#include <algorithm>
#include <string>
#include <vector>

namespace naqala::bao::reference {

struct Pos {
  bool kujifunza = false;
  int pit[2][2][8] = {};  // [player][0 = front, 1 = back][column from the owner's left]
  int hand[2] = {};
  bool house[2] = {};
  int mover = 0;
  int takasia_col = -1;  // a front column of the mover, or -1
  bool annulled = false;
};

struct Cell {
  int row, col;
  bool operator==(const Cell&) const = default;
};

// Counter-clockwise: along the back row to the right, then along the front row to the left.
inline Cell step(Cell c, bool ccw) {
  if (ccw) {
    if (c.row == 1) return c.col == 7 ? Cell{0, 7} : Cell{1, c.col + 1};
    return c.col == 0 ? Cell{1, 0} : Cell{0, c.col - 1};
  }
  if (c.row == 1) return c.col == 0 ? Cell{0, 0} : Cell{1, c.col - 1};
  return c.col == 7 ? Cell{1, 7} : Cell{0, c.col + 1};
}

struct Decision {
  Cell start;
  bool ccw;
  bool sow_house;
};

class Mover {
 public:
  explicit Mover(Pos p) : p_(p), me_(p.mover), op_(1 - p.mover) {}

  int& at(int who, Cell c) { return p_.pit[who][c.row][c.col]; }
  bool namua() const { return p_.hand[me_] > 0; }

  // Sows n seeds, the first into `from`; returns the last cell.
  Cell sow(Cell from, int n, bool ccw) {
    Cell c = from;
    for (int i = 0; i < n; ++i) {
      at(me_, c) += 1;
      bool front = false;
      for (int col = 0; col < 8; ++col) front = front || p_.pit[me_][0][col] > 0;
      front_row_emptied_ = front_row_emptied_ || !front;
      if (i + 1 < n) c = step(c, ccw);
    }
    return c;
  }
  bool opp_front_has(int col) { return p_.pit[op_][0][7 - col] > 0; }
  bool is_house(Cell c) const { return !p_.kujifunza && c.row == 0 && c.col == 4; }

  // The move from a capture at front column `col` (last seed already there).
  void capture_move(Cell e, bool ccw, bool choose_ccw, bool first) {
    long guard = 0;
    while (true) {
      if (++guard > 200000) {
        p_.annulled = true;
        return;
      }
      int n = at(me_, e);
      if (n == 1) return;
      if (e.row == 0 && opp_front_has(e.col)) {
        int taken = p_.pit[op_][0][7 - e.col];
        p_.pit[op_][0][7 - e.col] = 0;
        if (7 - e.col == 4) p_.house[op_] = false;
        bool from_right;
        if (e.col <= 1)
          from_right = false;
        else if (e.col >= 6)
          from_right = true;
        else if (first)
          from_right = choose_ccw;
        else
          from_right = ccw;
        first = false;
        ccw = from_right;
        e = sow(Cell{0, from_right ? 7 : 0}, taken, ccw);
        // R12: the opponent's front row is empty, the game is won; the move stops here.
        bool opp_front = false;
        for (int c = 0; c < 8; ++c) opp_front = opp_front || p_.pit[op_][0][c] > 0;
        if (!opp_front) return;
        continue;
      }
      first = false;
      if (namua_move_ && is_house(e) && p_.house[me_] && n >= 6) {
        reached_choice_ = true;
        if (!sow_house_) return;
      }
      at(me_, e) = 0;
      if (is_house(e)) p_.house[me_] = false;
      e = sow(step(e, ccw), n, ccw);
    }
  }

  void takasa_move(Cell e, bool ccw) {
    long guard = 0;
    while (true) {
      if (++guard > 200000) {
        p_.annulled = true;
        return;
      }
      int n = at(me_, e);
      if (n == 1) return;
      if (e.row == 0 && e.col == takasia_) return;
      if (namua_move_ && is_house(e) && p_.house[me_] && n >= 6) return;
      at(me_, e) = 0;
      if (is_house(e)) p_.house[me_] = false;
      e = sow(step(e, ccw), n, ccw);
    }
  }

  // Plays a decision known to be allowed. Returns whether the house choice came up.
  bool play(Decision d) {
    namua_move_ = namua();
    sow_house_ = d.sow_house;
    takasia_ = p_.takasia_col;
    p_.takasia_col = -1;
    const bool house_before =
        !p_.kujifunza && p_.house[me_] && p_.pit[me_][0][4] >= 6 && namua_move_;
    if (namua_move_) {
      p_.hand[me_] -= 1;
      at(me_, d.start) += 1;
      if (opp_front_has(d.start.col)) {
        capture_move(d.start, d.ccw, d.ccw, true);
        was_takasa_ = false;
      } else {
        int n = at(me_, d.start);
        if (is_house(d.start) && house_before) {
          n = 2;
          at(me_, d.start) -= 2;
        } else {
          at(me_, d.start) = 0;
          if (is_house(d.start)) p_.house[me_] = false;
        }
        takasa_move(sow(step(d.start, d.ccw), n, d.ccw), d.ccw);
        was_takasa_ = true;
      }
    } else {
      const bool capture = first_sowing_captures(d.start, d.ccw);
      int n = at(me_, d.start);
      at(me_, d.start) = 0;
      if (is_house(d.start)) p_.house[me_] = false;
      Cell e = sow(step(d.start, d.ccw), n, d.ccw);
      if (capture)
        capture_move(e, d.ccw, d.ccw, false);
      else
        takasa_move(e, d.ccw);
      was_takasa_ = !capture;
    }
    return reached_choice_;
  }

  bool first_sowing_captures(Cell s, bool ccw) {
    const int n = at(me_, s);
    if (n < 2 || n >= 16) return false;
    Cell c = s;
    for (int i = 0; i < n; ++i) c = step(c, ccw);
    return c.row == 0 && at(me_, c) >= 1 && opp_front_has(c.col);
  }

  Pos result() const { return p_; }
  // Was the mover's front row empty after any seed was dropped (S4:219)?
  bool front_row_emptied() const { return front_row_emptied_; }
  bool was_takasa() const { return was_takasa_; }

 private:
  Pos p_;
  int me_, op_;
  bool namua_move_ = false, sow_house_ = false, reached_choice_ = false, was_takasa_ = false;
  bool front_row_emptied_ = false;
  int takasia_ = -1;
};

inline std::vector<Decision> decisions(const Pos& p) {
  std::vector<Decision> out;
  Mover m(p);
  const int me = p.mover, op = 1 - p.mover;
  auto with_choice = [&](Decision d) {
    out.push_back(d);
    if (p.kujifunza || !p.house[me]) return;
    Mover probe(p);
    if (probe.play(d)) {
      d.sow_house = true;
      out.push_back(d);
    }
  };
  if (p.hand[me] > 0) {
    for (int col = 0; col < 8; ++col)
      if (p.pit[me][0][col] > 0 && p.pit[op][0][7 - col] > 0) {
        if (col <= 1)
          with_choice({{0, col}, false, false});
        else if (col >= 6)
          with_choice({{0, col}, true, false});
        else {
          with_choice({{0, col}, false, false});
          with_choice({{0, col}, true, false});
        }
      }
    if (!out.empty()) return out;
    const bool house = p.house[me] && p.pit[me][0][4] >= 6;
    // R11: without a functional house, a single seed only when no front pit holds 2+.
    int least = 1;
    for (int col = 0; col < 8 && !house; ++col)
      if (p.pit[me][0][col] >= 2) least = 2;
    for (int col = 0; col < 8; ++col)
      if (p.pit[me][0][col] >= least && !(house && col == 4))
        for (bool ccw : {false, true}) out.push_back({{0, col}, ccw, false});
    if (out.empty() && house)
      for (bool ccw : {false, true}) out.push_back({{0, 4}, ccw, false});
    return out;
  }
  for (int row = 0; row < 2; ++row)
    for (int col = 0; col < 8; ++col) {
      if (row == 0 && col == p.takasia_col) continue;
      for (bool ccw : {false, true})
        if (m.first_sowing_captures({row, col}, ccw)) out.push_back({{row, col}, ccw, false});
    }
  if (!out.empty()) return out;
  int occupied = 0;
  for (int col = 0; col < 8; ++col) occupied += p.pit[me][0][col] > 0;
  for (int row = 0; row < 2 && out.empty(); ++row)
    for (int col = 0; col < 8; ++col) {
      if (p.pit[me][row][col] < 2 || (row == 0 && col == p.takasia_col)) continue;
      if (!p.kujifunza && row == 0 && occupied == 1 && (col == 0 || col == 7)) {
        out.push_back({{0, col}, col == 7, false});  // a lone kichwa sows toward the centre
        continue;
      }
      for (bool ccw : {false, true}) out.push_back({{row, col}, ccw, false});
    }
  return out;
}

// After a takasa by the player who just moved (mover of `before`): takasia for the other.
inline void apply_takasia(Pos& after) {
  const int me = after.mover, op = 1 - after.mover;  // `me` is now the player to move
  if (after.kujifunza || after.hand[0] || after.hand[1]) return;
  // What does the player who just moved (op) threaten?
  Pos view = after;
  view.mover = op;
  view.takasia_col = -1;
  Mover threat(view);
  int target = -1;
  for (int row = 0; row < 2; ++row)
    for (int col = 0; col < 8; ++col)
      for (bool ccw : {false, true}) {
        if (!threat.first_sowing_captures({row, col}, ccw)) continue;
        Cell c{row, col};
        for (int i = 0; i < view.pit[op][row][col]; ++i) c = step(c, ccw);
        const int t = 7 - c.col;  // my front column under threat
        if (target >= 0 && target != t) return;
        target = t;
      }
  if (target < 0) return;
  Pos mine = after;
  mine.takasia_col = -1;
  Mover answer(mine);
  for (int row = 0; row < 2; ++row)
    for (int col = 0; col < 8; ++col)
      for (bool ccw : {false, true})
        if (answer.first_sowing_captures({row, col}, ccw)) return;
  if (target == 4 && after.house[me]) return;
  if (after.pit[me][0][target] == 1) return;
  int occupied = 0;
  for (int col = 0; col < 8; ++col) occupied += after.pit[me][0][col] > 0;
  if (occupied == 1) return;
  after.takasia_col = target;
}

inline std::string text(const Pos& p) {
  std::string s;
  for (int who = 0; who < 2; ++who)
    for (int row = 0; row < 2; ++row) {
      for (int col = 0; col < 8; ++col) {
        if (col) s += ',';
        s += std::to_string(p.pit[who][row][col]);
      }
      s += "/";
    }
  s += std::to_string(p.hand[0]) + "," + std::to_string(p.hand[1]) + "/";
  std::string h = std::string(p.house[0] ? "S" : "") + (p.house[1] ? "N" : "");
  s += (h.empty() ? "-" : h) + "/" + (p.mover == 0 ? "S" : "N") + "/";
  if (p.takasia_col < 0)
    s += "-";
  else
    s += std::string{static_cast<char>((p.mover == 0 ? 'a' : 'A') + p.takasia_col), '1'};
  return s;
}

// Every position after one legal decision, as text (an annulled game is marked).
inline std::vector<std::string> successors(const Pos& p) {
  std::vector<std::string> out;
  for (const Decision& d : decisions(p)) {
    Mover m(p);
    m.play(d);
    Pos after = m.result();
    if (after.annulled) {
      out.push_back("annulled");
      continue;
    }
    after.mover = 1 - p.mover;
    if (!after.kujifunza && m.was_takasa()) apply_takasia(after);
    out.push_back(text(after));
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace naqala::bao::reference
