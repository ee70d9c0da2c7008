#pragma once
#include <string>

namespace naqala {

// The shipped data directory of this build (the source tree's data/: trained evaluations, the
// backgammon net, opening books, level ratings). Defined in one file so that the path, which
// differs per checkout, is on one file's command line only and the compiler cache serves the
// rest of the build to every checkout.
const std::string& data_dir();

}  // namespace naqala
