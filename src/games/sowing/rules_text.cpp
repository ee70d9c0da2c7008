// `naqala rules VARIANT` for the sowing family: the rules in plain English, written from the
// compiled data so that a user's own variant file is described as faithfully as a preset.
#include <sstream>

#include "games/sowing/family.h"

namespace naqala::sowing {

namespace {

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
  o << "\nBoard. Two rows of " << r.pits << " pits, one row per player, with " << r.initial_seeds
    << " seeds in each pit (" << r.total_seeds << " in all). Each player also has a store for the "
    << "seeds he captures, on his " << (ccw ? "right" : "left") << ". Pits are numbered 1 to "
    << r.pits << " from each player's own left. " << (r.first == Player::South ? "South" : "North")
    << " moves first.\n";

  o << "\nMove. The player takes all the seeds of one of his pits";
  if (r.min_seeds > 1) o << " holding at least " << r.min_seeds << " seeds";
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
  o << "The move ends when the last seed is sown.\n";

  if (r.extra_turn)
    o << "\nExtra turn. If the last seed falls into his own store, the player moves again.\n";

  o << "\nCapture. ";
  switch (r.capture) {
    case CaptureKind::None:
      o << "There are no captures.\n";
      break;
    case CaptureKind::Opposite:
      o << "If the last seed falls into an empty pit of the player's own row";
      if (!r.empty_capture) o << " and the opposite pit holds seeds";
      o << ", he takes that seed and all the seeds of the opposite pit into his store.";
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
          o << "A move that would take every seed in the opponent's row (a grand slam) is allowed "
               "but "
               "captures nothing.\n";
          break;
        case GrandSlam::Forbidden:
          o << "A move that would take every seed in the opponent's row (a grand slam) is "
               "forbidden; if "
               "every move would be one, the player takes all the seeds left and the game ends.\n";
          break;
        case GrandSlam::CaptureAll:
          o << "A move that takes every seed in the opponent's row (a grand slam) captures them "
               "all; the "
               "player then also takes the seeds left in his own row and the game ends.\n";
          break;
      }
      break;
  }

  if (r.must_feed) {
    o << "\nFeeding. When the opponent has no seeds, the player must make a move that gives him "
         "some. ";
    o << (r.cannot_feed == CannotFeed::MoverTakes
              ? "If no move does, the game ends and the player takes every seed left.\n"
              : "If no move does, the game ends and each player takes the seeds in his own row.\n");
  }

  o << "\nEnd. ";
  if (r.threshold)
    o << "The game ends as soon as a store holds " << r.threshold << " seeds"
      << (r.draw_at_half ? " or both stores hold " + std::to_string(r.total_seeds / 2) + " (a draw)"
                         : "")
      << ". ";
  if (r.row_empty == RowEmptyCheck::Immediate)
    o << "It ends as soon as either player's row is empty. ";
  else
    o << "It ends when the player to move has no legal move. ";
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
      o << "If a position repeats (an endless cycle), the game ends and each player takes the "
           "seeds on his side. ";
      break;
    case CycleRule::Draw:
      o << "If a position repeats (an endless cycle), the game is a draw. ";
      break;
  }
  o << "The player with more seeds in his store wins";
  o << (r.tie == TieBreak::FirstEmpty
            ? "; on equal stores, the player whose row emptied first wins.\n"
            : "; equal stores are a draw.\n");
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
