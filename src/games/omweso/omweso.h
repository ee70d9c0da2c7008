#pragma once
// Omweso (RULES.md section 12, A18): the standard game (`omweso`: free setup, relay sowing,
// captures of both facing pits, reverse captures) and S0's own reading (`omweso-s0`: 4 seeds in
// each inner pit, single sowing, optional captures, S0's three ways to win). docs/games/omweso.md.
#include <array>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/outcome.h"
#include "core/rng.h"
#include "core/static_vector.h"
#include "games/any_game.h"
#include "games/board4/board.h"

namespace naqala::omweso {

enum class Version : std::uint8_t { Standard, S0 };

struct Rules {
  std::string name;
  Version version = Version::Standard;
  // S0's impasse: this many plies in a row without a capture annul the game (0 = never).
  int impasse_plies = 200;
  // Standard-game extras of the Wikipedia account that A18 does not name (options, off):
  bool reverse_resow = false;  // reverse-captured seeds may again go clockwise into a capture
  bool win_both_ends = false;  // captures at both ends of the board in one move win
  // S4:255's clock rule: a sowing not finished within this many seconds is endless and the
  // game annulled (0 = none). Data for the clocks of the server and the CLI (VariantInfo); the
  // engine, which proves endless relays exactly, also stops a relay after board4::kMaxRelayLaps
  // laps (some 250,000 seeds, far beyond two minutes) unless it is 0.
  int sowing_seconds = 120;
  std::vector<std::pair<std::string, std::string>> chosen;  // non-default options, spec order
};

Rules make_rules(Version version, const std::vector<std::pair<std::string, std::string>>& options);
std::vector<OptionInfo> option_infos(Version version);

// A play move: start pit, direction and (S0) how many captures the mover takes before he
// declines one, or (standard, reverse_resow) bit i = the captured seeds of the i-th reverse
// capture sown clockwise again. A setup move (dir == 0): `n` seeds into the next pit of the
// setup order.
struct Move {
  std::uint8_t pit = 0;
  std::int8_t dir = board4::CCW;
  std::uint8_t n = 0;
  bool operator==(const Move&) const = default;
};

class State {
 public:
  using Move = omweso::Move;
  using MoveList = StaticVector<Move, 320>;

  static State initial(const Rules& rules);
  static State from_position(const Rules& rules, std::string_view text);

  Player to_move() const { return mover_; }
  bool is_over() const { return reason_ != EndReason::None; }
  void legal_moves(MoveList& moves) const;
  void play(Move move);
  Outcome outcome() const;
  std::uint64_t hash() const;
  // A repeated position is a deadlock: the game is annulled (S0:24; our reading for both).
  bool ends_on_cycle() const { return true; }
  void end_by_cycle();

  std::string format_move(Move m) const;
  std::optional<Move> parse_move(std::string_view text) const;
  std::string position() const;
  std::string render() const;
  nlohmann::json board_json() const;

  int pit(Player p, int r) const { return pits_[index(p)][r]; }
  bool in_setup() const { return setup_ >= 0; }
  std::uint64_t last_steps() const { return steps_; }
  int seeds_on_side(Player p) const;
  // The pit the setup order fills k-th: the front row a1..h1, then the back row a2..h2.
  static int setup_pit(int k) { return k < 8 ? board4::front(k) : board4::back(k - 8); }
  // A layout that spreads the seeds: the seeds still in hand divided by the pits still to fill
  // (2 a pit from a full hand), so every pit can start a move; `jitter` shifts a pit by one
  // seed at random. The engines' setup and the matches' openings (a search sees nothing in
  // the setup: every layout has the same material). The state must be in setup.
  Move spread_setup_move(Rng* jitter) const;
  // A uniformly random layout, pit by pit: each seed in hand falls in this pit with chance one
  // over the pits left (a count binomial in the seeds left), so the plies in order draw every
  // layout as likely as if each seed chose its pit at random. The state must be in setup.
  Move uniform_setup_move(Rng& rng) const;

 private:
  State() = default;
  using Row = std::array<std::uint8_t, board4::kPits>;

  bool can_capture(
      int e) const;  // the last seed fell in own pit e: do both facing pits hold seeds?
  bool first_lap_captures(int r, int dir) const;
  std::uint16_t capture_pits() const;  // own front pits a relay may not pass: they capture
  int sow(Row& own, int from, int seeds, int dir);
  int run(Move m, bool count_only);  // plays the move; returns the captures it could take (S0)
  bool resow_captures(int start, int caught) const;  // would caught seeds sown clockwise?
  void add_reverse_moves(Move m, int from, MoveList& out) const;
  void check_turn_start();

  const Rules* rules_ = nullptr;
  std::array<Row, 2> pits_{};
  Player mover_ = Player::South;
  std::int8_t setup_ = -1;  // setup pits placed by the mover; -1 once play has begun
  EndReason reason_ = EndReason::None;
  std::optional<Player> winner_;
  std::uint64_t steps_ = 0;
  // S0's ways to win: captures made so far (saturating at 2), and which of the opponent's two
  // kichwa each player took in his last two moves (bit 0 left, bit 1 right).
  std::array<std::uint8_t, 2> captures_{};
  std::array<std::uint8_t, 2> kichwa_now_{};
  std::array<std::uint8_t, 2> kichwa_before_{};
  std::uint16_t quiet_plies_ = 0;  // S0: plies since the last capture
  // Scratch of the move being played (not part of the position): the choice points met
  // (reverse_resow) and the ends of the board captured at (bit 0 left, bit 1 right).
  std::uint8_t choice_points_ = 0;
  std::uint8_t ends_ = 0;
};

}  // namespace naqala::omweso
