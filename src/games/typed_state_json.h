#pragma once
// TypedState<S>::board_json, kept out of typed_state.h: each family's family.cpp includes this
// and instantiates it for its state (`template nlohmann::json TypedState<S>::board_json() const;`).
#include <nlohmann/json.hpp>

#include "games/typed_state.h"

namespace naqala {

template <TextGameState S>
nlohmann::json TypedState<S>::board_json() const {
  if constexpr (requires { state_.board_json(); }) {
    return state_.board_json();
  } else {
    return nlohmann::json{{"position", position()}};
  }
}

}  // namespace naqala
