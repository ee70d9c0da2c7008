#pragma once
// Bao la Kiswahili and Bao la Kujifunza (RULES.md sections 8, 9; A11-A16): one state, one
// engine, the differences in Rules. A move is one complete decision: the start pit, the
// direction (in a namua capture: the kichwa the captured seeds start from) and whether to
// sow the nyumba when a capturing move stops in it. docs/games/bao.md has the details.
#include <array>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/outcome.h"
#include "core/static_vector.h"
#include "games/any_game.h"
#include "games/board4/board.h"

namespace naqala::bao {

enum class Game : std::uint8_t { Kiswahili, Kujifunza };

struct Rules {
  std::string name;  // preset name
  Game game = Game::Kiswahili;
  int house_seeds = 6;                // seeds in the nyumba at the start (Malawi: 8)
  int no_capture_from = 16;           // rule of 16: a move from a pit this full never captures
  bool house_rules_in_mtaji = false;  // S4's house tax etc. in the mtaji stage (A13)
  bool house_immune = false;          // S4:224: a functional house cannot be captured
  bool house_stop_forced = false;  // S4:232 "some versions": a capture stopping in the house ends
  bool takasia = true;             // S4:244-250, mtaji stage only
  bool namua_single_any = false;   // R11 off: a namua takasa from any non-empty front pit
  std::vector<std::pair<std::string, std::string>> chosen;  // non-default options, spec order

  bool has_house() const { return game == Game::Kiswahili; }
  int hand_seeds() const { return has_house() ? 32 - house_seeds - 4 : 0; }
};

// Builds the rules of a preset with options; throws VariantError naming the bad option.
Rules make_rules(std::string_view preset,
                 const std::vector<std::pair<std::string, std::string>>& options);
std::vector<OptionInfo> option_infos(Game game);

struct Move {
  std::uint8_t pit = 0;  // ring index (board.h) of the start pit
  std::int8_t dir = board4::CCW;
  std::uint8_t sow_house = 0;  // 1: when the move stops in the functional house, sow it on
  bool operator==(const Move&) const = default;
};

class State {
 public:
  using Move = bao::Move;
  using MoveList = StaticVector<Move, 64>;

  static State initial(const Rules& rules);
  static State from_position(const Rules& rules, std::string_view text);

  Player to_move() const { return mover_; }
  bool is_over() const { return reason_ != EndReason::None; }
  void legal_moves(MoveList& moves) const;
  void play(Move move);
  Outcome outcome() const;
  std::uint64_t hash() const;

  std::string format_move(Move m) const;
  std::optional<Move> parse_move(std::string_view text) const;
  std::string position() const;
  std::string render() const;
  nlohmann::json board_json() const;

  const Rules& rules() const { return *rules_; }
  int pit(Player p, int r) const { return pits_[index(p)][r]; }
  // A side's 16 pits by ring index (the evaluation reads them as two 64-bit words).
  const std::array<std::uint8_t, board4::kPits>& row(Player p) const { return pits_[index(p)]; }
  int hand(Player p) const { return hand_[index(p)]; }
  bool house(Player p) const { return house_[index(p)]; }
  // The pit of the player to move that the last takasa made takasia (ring index), or -1.
  int takasia_pit() const { return takasia_; }
  bool in_namua(Player p) const { return hand_[index(p)] > 0; }
  // Seeds dropped by the last move (for sowing steps/s).
  std::uint64_t last_steps() const { return steps_; }
  int seeds_on_side(Player p) const;

 private:
  State() = default;
  using Row = std::array<std::uint8_t, board4::kPits>;

  bool house_active(Player p) const;
  bool capturable(Player owner, int r) const;  // can the opponent of `owner` take pit r?
  bool captures_at(Player p, int e) const;     // a seed ending in own front pit e captures
  int first_sowing_end(int r, int n, int dir) const { return (r + dir * n) & 15; }
  bool is_capture_start(Player p, int r, int dir) const;
  std::uint16_t capture_targets(Player p) const;
  std::uint16_t capture_ends(Player p) const;
  // The capture starts of a player: a bit per start pit for each direction, and the own pits
  // their first sowings end in.
  struct CaptureStarts {
    std::uint16_t cw = 0, ccw = 0, ends = 0;
  };
  CaptureStarts capture_starts(Player p) const;
  void capture_moves(Player p, MoveList& out) const;
  void takasa_moves(MoveList& out) const;
  void namua_moves(MoveList& out) const;
  void add_with_house_choice(Move m, MoveList& out) const;

  // The engine: returns true when the move reached the house choice point.
  bool run(Move m);
  int sow(Row& own, int from, int seeds, int dir);  // first seed into `from`; returns last pit
  [[gnu::noinline, gnu::cold]] void trace_sow(int from, int seeds, int dir) const;
  bool capture_chain(int e, int dir, bool first, Move m);
  void takasa_chain(int e, int dir, int takasia);
  std::uint16_t stop_pits(Player p, bool captures, int takasia) const;
  bool relay_on(int& e, int dir, std::uint16_t stops);
  void annul();
  void set_takasia(Player p);
  void check_turn_start();
  bool has_any_move() const;

  const Rules* rules_ = nullptr;
  std::array<Row, 2> pits_{};
  std::array<std::uint8_t, 2> hand_{};
  std::array<bool, 2> house_{};
  Player mover_ = Player::South;
  std::int8_t takasia_ = -1;
  EndReason reason_ = EndReason::None;
  std::optional<Player> winner_;
  std::uint64_t steps_ = 0;
  // Scratch of the move being played (not part of the position).
  bool namua_move_ = false;
  bool last_was_takasa_ = false;
};

}  // namespace naqala::bao
