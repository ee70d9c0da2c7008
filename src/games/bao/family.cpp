#include "games/bao/family.h"

#include <memory>

#include "games/bao/bao.h"
#include "games/board4/family_common.h"
#include "games/typed_state_json.h"

namespace naqala::bao {

namespace {

VariantInfo info_of(Game game) {
  VariantInfo v;
  v.family = "bao";
  if (game == Game::Kiswahili) {
    v.name = "bao";
    v.title = "Bao la Kiswahili";
    v.summary = "Four-row Bao of Zanzibar and Tanzania: namua with seeds from the hand, then mtaji";
    v.aliases = {"bao-la-kiswahili", "bao-kiswahili"};
  } else {
    v.name = "bao-kujifunza";
    v.title = "Bao la Kujifunza";
    v.summary = "The learners' Bao: 2 seeds in every pit, mtaji 2-15, captured seeds sown on";
    v.aliases = {"bao-la-kujifunza"};
  }
  v.options = option_infos(game);
  return v;
}

std::string rules_text(const Rules& r) {
  std::string s;
  if (r.game == Game::Kujifunza) {
    s = "Bao la Kujifunza (RULES.md 9). 4 x 8 board, each player owns his two nearest rows; 2 "
        "seeds in "
        "every pit (64). A move lifts a pit of 2 or more seeds and sows it clockwise or "
        "counter-clockwise "
        "around the mover's own 16 pits, relaying on occupied pits. Capture (compulsory): a pit of "
        "2-15 "
        "seeds whose sowing ends in an occupied front pit facing an occupied opponent front pit "
        "takes that "
        "opponent pit; the taken seeds are sown from the left front corner clockwise (two left "
        "columns, or "
        "the centre while sowing clockwise) or the right corner counter-clockwise, and play goes "
        "on with "
        "relays and further captures until a seed falls into an empty pit (a capture that empties "
        "the opponent's front row wins at once). Without a capture the "
        "move is "
        "kutakata: from the front row if possible, no captures, no change of direction. A player "
        "with an "
        "empty front row or no pit of 2+ seeds loses.";
    return s;
  }
  s = "Bao la Kiswahili (RULES.md 8). 4 x 8 board; each player owns his two nearest rows. Start: " +
      std::to_string(r.house_seeds) +
      " seeds in the nyumba (e1/E1), 2 in each of the next two pits to its right, " +
      std::to_string(r.hand_seeds()) +
      " in hand. Namua stage (seeds in hand): put one seed into a non-empty front pit; if the "
      "opponent's "
      "facing pit is occupied, take it (compulsory) and sow the taken seeds from a kichwa toward "
      "the centre "
      "(from a kimbi the nearest kichwa, in the centre the player's choice); relay on occupied "
      "pits, capture "
      "again from occupied front pits facing occupied pits, stop in an empty pit. Otherwise "
      "takasa: lift the "
      "pit and sow it either way, relaying, no captures (" +
      std::string(r.namua_single_any
                      ? "into any non-empty front pit"
                      : "once the nyumba no longer functions, into a single seed only when no "
                        "front pit holds two or more") +
      "); the functional nyumba gives only two "
      "seeds and a "
      "takasa stops in it; a capture stopping in it may stop or sow it on (it then becomes "
      "ordinary). Mtaji "
      "stage (hands empty): moves from pits of 2+ seeds; a capture must come from the first "
      "sowing; without "
      "any capture a takasa from the front row if possible; a pit of " +
      std::to_string(r.no_capture_from) +
      "+ seeds never captures; takasia: " + (r.takasia ? "on" : "off") +
      ". Options: house_rules_in_mtaji=" + (r.house_rules_in_mtaji ? "true" : "false") +
      ", house_immune=" + (r.house_immune ? "true" : "false") +
      ", house_stop=" + (r.house_stop_forced ? "forced" : "choice") +
      ". A player with an empty front row or no legal move loses; a capture that empties the "
      "opponent's front row wins at once; there are no draws.";
  return s;
}

}  // namespace

GameFamily family() {
  GameFamily f;
  f.name = "bao";
  f.variants = [] {
    return std::vector<VariantInfo>{info_of(Game::Kiswahili), info_of(Game::Kujifunza)};
  };
  f.make = [](const VariantSpec& spec) -> std::unique_ptr<AnyGame> {
    for (Game g : {Game::Kiswahili, Game::Kujifunza}) {
      const VariantInfo v = info_of(g);
      if (!board4::names(v, spec.name)) continue;
      auto rules = std::make_shared<const Rules>(make_rules(v.name, spec.options));
      return std::make_unique<board4::FourRowGame<State, Rules>>(rules, v, rules_text(*rules));
    }
    return nullptr;
  };
  return f;
}

}  // namespace naqala::bao

// The board for the browser, instantiated here once (games/typed_state_json.h).
template nlohmann::json naqala::TypedState<naqala::bao::State>::board_json() const;
