// `naqala rules VARIANT` for the sowing family: the rules in plain English, written from the
// compiled data so that a user's own variant file is described as faithfully as a preset.
#include <sstream>

#include "games/sowing/family.h"

namespace naqala::sowing {

namespace {

// Ruling R13 (docs/games/README.md).
constexpr const char* kEndless =
    "A move whose sowing would never end may not be played while another move exists; if every "
    "move would, the game is annulled.";

std::string counts_text(std::uint32_t mask) {
  std::string out;
  std::vector<int> counts;
  for (int c = 0; c < 32; ++c)
    if ((mask >> c) & 1) counts.push_back(c);
  for (std::size_t i = 0; i < counts.size(); ++i) {
    if (i) out += i + 1 == counts.size() ? " or " : ", ";
    out += std::to_string(counts[i]);
  }
  return out;
}

void general_capture_text(std::ostringstream& o, const Rules& r) {
  if (!r.capture_set && r.laps != Laps::NextPit) o << "Only as described above. ";
  if (r.laps == Laps::NextPit) o << "As described above. ";
  if (r.capture_set & kCapOpposite) {
    o << "If the move ends with the last seed in an empty pit of the player's own row";
    if (!r.empty_capture) o << " and the opposite pit holds seeds";
    o << ", he takes the seeds of the opposite pit"
      << (r.with_last_seed ? " and the capturing seed" : "; the capturing seed stays in its pit")
      << ". ";
  }
  if (r.capture_set & kCapCounts) {
    std::string counts;
    bool even = r.capturable[2] && r.capturable[6] && r.capturable[8];
    if (even)
      counts = "an even number of";
    else
      counts = counts_text(r.count_mask);
    const std::string where = r.capture_side == CaptureSide::Both  ? "a pit of either row"
                              : r.capture_side == CaptureSide::Own ? "a pit of his own row"
                                                                   : "an opponent's pit";
    o << "If the last seed falls into " << where << " and makes it hold " << counts
      << " seeds, he takes them" << (r.with_opposite ? " with the seeds of the pit opposite" : "")
      << ".";
    if (r.chain)
      o << " So are the pits "
        << (r.chain_dir == ChainDir::Forward ? "further along the sowing" : "before it")
        << " that hold " << counts << " seeds"
        << (r.capture_side == CaptureSide::Opponent ? " in the opponent's row" : "")
        << ", one after another, until one does not.";
    o << " ";
  }
  if (r.tuz != TuzKind::None) {
    o << "\n\nTuz. A last seed that makes exactly " << r.tuz_count << " in an opponent's pit "
      << (r.tuz == TuzKind::Auto
              ? "turns it into the mover's tuz"
              : "lets the mover declare it his tuz (the move written with a `t`, `7t` beside `7`)")
      << ": he takes those seeds, and every seed later sown into it goes to his store. Each player "
         "has at "
         "most one tuz; the opponent's last pit can never be one, nor the pit with the same number "
         "as the "
         "opponent's tuz. ";
  }
  if (r.capture_set & kCapColumn)
    o << "If the move ends with the last seed in an empty pit, the player takes "
      << (r.column_enemy_only ? "the opponent's seeds in the other pits of that column"
                              : "the seeds of the other two pits of that column")
      << ". ";
  o << "\n";
}

}  // namespace

std::string rules_text(const Rules& r) {
  std::ostringstream o;
  o << r.title << "\n" << std::string(r.title.size(), '=') << "\n";
  if (!r.summary.empty()) o << r.summary << ".\n";
  if (!r.description.empty()) o << "\n" << r.description << "\n";
  if (!r.chosen.empty()) {
    o << "\nOptions chosen:";
    for (const auto& [k, v] : r.chosen) o << " " << k << "=" << v;
    o << "\n";
  }
  const bool ccw = r.direction == Direction::Ccw;
  if (r.rows == 3) {
    o << "\nBoard. Three rows of " << r.pits << " pits with " << r.initial_seeds
      << " seeds in each (" << r.total_seeds
      << " in all). Each player owns his near row (pits 1 to " << r.pits
      << " from his left) and the half of the middle row on his right (pits " << r.pits + 1
      << " to " << r.labels
      << ", continuing his sowing path). Both players sow counter-clockwise along one cycle of "
      << r.pit_count()
      << " pits: South's row, South's half of the middle row, North's row, North's half. "
      << "Captured seeds go to a store beside the board.\n";
  } else if (r.setup != SetupKind::None) {
    o << "\nBoard. Two rows of " << r.pits << " pits, one row per player, and " << r.total_seeds
      << " seeds. Each player also has a store for the seeds he captures. Pits are numbered 1 to "
      << r.pits << " from each player's own left.\n";
  } else {
    o << "\nBoard. Two rows of " << r.pits << " pits, one row per player, with " << r.initial_seeds
      << " seeds in each pit (" << r.total_seeds
      << " in all). Each player also has a store for the "
      << "seeds he captures, on his " << (ccw ? "right" : "left") << ". Pits are numbered 1 to "
      << r.pits << " from each player's own left. "
      << (r.first == Player::South ? "South" : "North") << " moves first.\n";
  }
  const std::string arranger = r.arranger == Player::South ? "South" : "North";
  const std::string other = r.arranger == Player::South ? "North" : "South";
  if (r.setup == SetupKind::Free)
    o << "\nSetup. " << arranger << " lays out all " << r.total_seeds << " seeds over the "
      << r.pit_count() << " pits, at least " << r.setup_min
      << " in each, one pit at a time: South's pits 1 to " << r.pits
      << ", then North's (a move such as `S3=7`).\n";
  if (r.setup == SetupKind::Mirror)
    o << "\nSetup. " << arranger << " lays out " << r.total_seeds / 2
      << " seeds in the pits of one row and the same counts in the same pits of the other row, one "
         "pit at a "
         "time (a move such as `3=7` puts 7 seeds in pit 3 of both rows)"
      << (r.setup_min ? ", at least " + std::to_string(r.setup_min) + " in each" : "") << ".\n";
  if (r.setup != SetupKind::None) {
    const std::string first = r.setup_first == FirstAfterSetup::Arranger ? arranger : other;
    o << "\nFirst move. " << first << " moves first.";
    if (r.pie)
      o << " Pie rule: before that, " << other
        << " may turn the board round (`swap`), each player then "
        << "playing the other row, or keep it (`keep`); after a swap " << arranger
        << " moves first.";
    o << "\n";
  }
  if (r.start_rule == Start::Simultaneous) {
    o << "\nFirst move. Both players make the first move at once: one joint move such as `3+5` "
         "(South's pit 3, North's pit 5), each choosing his pit without seeing the other's. The "
         "two sowings run in lock-step, one seed per tick, South's seed first within a tick; "
         "captures happen as each sowing ends.";
    if (r.extra_turn)
      o << " A sowing that ends in the player's own store earns him another sowing at once: the "
           "lock-step waits while he chooses his next pit (both choose again, blind, if both "
           "ended in their stores at the same tick).";
    o << " The player whose sowing ended first then moves (South if both ended together), and "
         "turns alternate.\n";
  }

  o << "\nMove. The player takes all the seeds of one of his pits";
  if (r.min_seeds > 1) o << " holding at least " << r.min_seeds << " seeds";
  if (r.pit_choice == PitChoice::Rightmost)
    o << " (he does not choose: he must take his rightmost pit, or if it is empty the nearest pit "
         "to its left "
         "that holds seeds)";
  if (r.singletons == Singletons::LastResort)
    o << " (a pit with a single seed only when every non-empty pit of his holds a single seed)";
  o << " and sows them one by one " << (ccw ? "counter-clockwise" : "clockwise")
    << ", starting with "
    << (r.start == SowStart::Origin ? "the emptied pit itself (when it held more than one seed)"
                                    : "the next pit")
    << ". ";
  switch (r.stores) {
    case StoreSowing::None:
      o << "Stores are never sown. ";
      break;
    case StoreSowing::Own:
      o << "He sows into his own store but passes over his opponent's. ";
      break;
    case StoreSowing::Both:
      o << "Both stores are sown. ";
      break;
  }
  if (r.skip_origin) o << "When a lap comes round, the pit the seeds came from is passed over. ";
  if (r.skip_full)
    o << "Any pit already holding " << r.skip_full << " or more seeds is passed over. ";
  if (r.rounds == RoundKind::Refill) o << "Burnt pits are passed over. ";
  switch (r.laps) {
    case Laps::Single:
      o << "The move ends when the last seed is sown.\n";
      break;
    case Laps::Relay:
      o << "If the last seed falls into an occupied pit";
      if (r.capture_set & kCapCounts) o << " and makes no capture";
      o << ", he lifts all its seeds and sows on from the next pit (a relay); the move ends when "
           "the last seed "
           "falls into an empty pit"
        << (r.stores != StoreSowing::None ? " or a store" : "") << ". " << kEndless << "\n";
      break;
    case Laps::NextPit:
      o << "When his hand is empty he lifts the pit after the one where his last seed fell and "
           "sows on from "
           "it (pussa-kanawa), until that next pit is empty; then he takes the pit after the empty "
           "one and "
           "the pit opposite it (not the empty pit itself), and the turn passes. "
        << kEndless << "\n";
      break;
  }
  if (r.during != Taker::None) {
    o << "\nFours. Whenever a pit reaches " << r.during_count
      << " seeds during the sowing, its seeds go at "
      << "once to " << (r.during == Taker::Sower ? "the sower" : "the pit's owner")
      << " and the sowing goes on";
    if (r.during_last == Taker::Continue)
      o << " (the last seed too).\n";
    else
      o << "; when the last seed makes " << r.during_count << ", they go to "
        << (r.during_last == Taker::Sower ? "the mover" : "the pit's owner")
        << " and the move ends.\n";
  }
  if (r.sweep)
    o << "When a capture leaves " << r.sweep
      << " or fewer seeds on the board, the capturer takes them too "
      << "and the round ends.\n";

  if (r.extra_turn)
    o << "\nExtra turn. If the last seed falls into his own store, the player moves again.\n";

  o << "\nCapture. ";
  if (r.general || r.even || r.tuz != TuzKind::None || (r.capture_set & (r.capture_set - 1)) != 0) {
    general_capture_text(o, r);
  } else
    switch (r.capture) {
      case CaptureKind::None:
        o << "There are no captures.\n";
        break;
      case CaptureKind::Opposite:
        o << "If the last seed falls into an empty pit of the player's own row";
        if (!r.empty_capture) o << " and the opposite pit holds seeds";
        o << (r.with_last_seed
                  ? ", he takes that seed and all the seeds of the opposite pit into his store."
                  : ", he takes all the seeds of the opposite pit into his store; the capturing "
                    "seed stays in its pit.");
        if (r.empty_capture)
          o << " This happens even when the opposite pit is empty (the lone seed is stored).";
        o << "\n";
        break;
      case CaptureKind::Counts:
        o << "If the last seed falls into an opponent's pit and makes it hold "
          << counts_text(r.count_mask) << " seeds, the player takes them.";
        if (r.chain)
          o << " Then the pit before it is examined, and so on backwards: each opponent's pit that "
               "holds "
            << counts_text(r.count_mask)
            << " is taken too, until a pit that does not, or the end of the "
            << "opponent's row.";
        o << " Nothing is ever captured in the player's own row.\n";
        switch (r.grand_slam) {
          case GrandSlam::NoCapture:
            o << "A move that would take every seed in the opponent's row (a grand slam) is "
                 "allowed "
                 "but "
                 "captures nothing.\n";
            break;
          case GrandSlam::Forbidden:
            o << "A move that would take every seed in the opponent's row (a grand slam) is "
                 "forbidden; if "
                 "every move would be one, the player takes all the seeds left and the game "
                 "ends.\n";
            break;
          case GrandSlam::CaptureAll:
            o << "A move that takes every seed in the opponent's row (a grand slam) captures them "
                 "all; the "
                 "player then also takes the seeds left in his own row and the game ends.\n";
            break;
        }
        break;
    }

  if (r.must_feed && r.feeding == Feeding::Gift) {
    o << "\nFeeding. When the opponent has no seeds, the player's turn is to give him one seed "
         "from any of his own pits (a move such as `g3`), into "
      << (r.gift_to_first ? "the opponent's pit 1" : "the pit opposite it") << ".\n";
  } else if (r.must_feed) {
    o << (r.fed_by_sowing
              ? "\nFeeding. When the opponent has no seeds, the player must make a move that "
                "throws "
                "at least one seed onto his side, even if the same move captures it back. "
              : "\nFeeding. When the opponent has no seeds, the player must make a move that gives "
                "him some. ");
    o << (r.cannot_feed == CannotFeed::MoverTakes
              ? "If no move does, the game ends and the player takes every seed left.\n"
              : "If no move does, the game ends and each player takes the seeds in his own row.\n");
  }

  o << "\nEnd. ";
  if (r.threshold)
    o << (r.rounds != RoundKind::None ? "The round" : "The game")
      << " ends as soon as a store holds " << r.threshold << " seeds"
      << (r.draw_at_half ? " or both stores hold " + std::to_string(r.total_seeds / 2) + " (a draw)"
                         : "")
      << ". ";
  const std::string ends = r.rounds != RoundKind::None ? "The round" : "It";
  if (r.one_each_ends)
    o << ends << " ends when each side holds exactly one seed; each player takes his. ";
  if (r.row_empty == RowEmptyCheck::Immediate) {
    o << ends << " ends as soon as either player's row is empty. ";
  } else {
    switch (r.no_move) {
      case NoMove::End:
        o << ends << " ends when the player to move has no legal move. ";
        break;
      case NoMove::Loses:
        o << "The player to move who has no legal move loses. ";
        break;
      case NoMove::Pass:
        o << "A player with no legal move passes; when neither can move, "
          << (r.rounds != RoundKind::None ? "the round" : "the game") << " ends. ";
        break;
      case NoMove::PassOnce:
        o << "A player with no seeds passes; if the opponent's reply still leaves him none, "
          << (r.rounds != RoundKind::None ? "the round" : "the game") << " ends. ";
        break;
    }
  }
  switch (r.remaining) {
    case Remaining::Owner:
      o << "The seeds still in the pits then go to the store of the pits' owner. ";
      break;
    case Remaining::Emptied:
      o << "The seeds still in the pits then go to the player whose row is empty. ";
      break;
    case Remaining::None:
      o << "Seeds still in the pits then count for nobody. ";
      break;
  }
  switch (r.cycle) {
    case CycleRule::None:
      break;
    case CycleRule::Owner:
      o << "If a position repeats (an endless cycle), the "
        << (r.rounds != RoundKind::None ? "round" : "game")
        << " ends and each player takes the seeds on his side. ";
      break;
    case CycleRule::Draw:
      if (r.rounds != RoundKind::None)
        o << "If a position repeats (an endless cycle), the round ends and each player takes the "
             "seeds on his side. ";
      else
        o << "If a position repeats (an endless cycle), the game is a draw. ";
      break;
  }
  switch (r.rounds) {
    case RoundKind::None:
      o << "The player with more seeds in his store wins";
      o << (r.tie == TieBreak::FirstEmpty
                ? "; on equal stores, the player whose row emptied first wins.\n"
                : "; equal stores are a draw.\n");
      break;
    case RoundKind::NamNam:
      o << "\n\nRounds. The player with more seeds fills each pit of his own row with "
        << r.initial_seeds << ", then claims one pit of the opponent's row for each further "
        << r.initial_seeds
        << " (his choice, a move such as `claim:2+5`); those pits are his in the next round. The "
           "opponent fills "
           "the rest. Equal stores give each player his row back. The player who holds every seed "
           "wins. Rounds "
           "are started alternately.\n";
      break;
    case RoundKind::Refill:
      o << "\n\nRounds. Each player refills his pits with " << r.refill
        << " seeds each from his store, "
        << "from his pit 1; pits he cannot fill are burnt and passed over in the next round (they "
           "come back "
           "when he can fill them again). A player who cannot fill a single pit loses. Rounds are "
           "started "
           "alternately.\n";
      break;
    case RoundKind::Gabata:
      o << "\n\nRounds. The player who gathers every seed wins; equal stores end the game in a "
           "draw. "
           "Otherwise the weaker player lays out his seeds "
        << r.initial_seeds
        << " per pit along his path from his pit 1 (the stronger tops up the last pit), "
        << "the stronger fills the same pits of his own and keeps the rest in his store. Rounds "
           "are started "
           "alternately.\n";
      break;
    case RoundKind::Points:
      o << "\n\nRounds. "
        << (r.difference ? "The winner of a round scores the difference between the two players' "
                           "captures in it (an equal round scores nothing); "
                         : "The seeds each player captured in a round are added to his points; ");
      if (r.target)
        o << "the first to " << r.target
          << " points wins the set (more points wins if both get there; equal points draw)";
      if (r.target && r.round_count) o << ", or after " << r.round_count << " rounds, more points";
      if (!r.target) o << "after " << r.round_count << " rounds, more points wins (equal draws)";
      o << ". Each new round starts with a new layout by the other player.\n";
      break;
  }
  if (!r.options.empty()) {
    o << "\nOptions (name=value in a variant spec, e.g. " << r.name << ":" << r.options[0].name
      << "=" << r.options[0].allowed.back() << "):\n";
    for (const auto& opt : r.options) {
      o << "  " << opt.name << " = ";
      for (std::size_t i = 0; i < opt.allowed.size(); ++i) o << (i ? "|" : "") << opt.allowed[i];
      o << " (default " << opt.default_value << "): " << opt.help << "\n";
    }
  }
  if (!r.source.empty()) o << "\nSources: " << r.source << ".\n";
  return o.str();
}

}  // namespace naqala::sowing
