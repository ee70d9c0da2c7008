#pragma once
// Writing a file whole: through a temporary file and a rename, so an interrupted run leaves
// either the whole new file or the old one, never half of one.
#include <string>

namespace naqala::play {

// Throws Error naming the file when it cannot be written.
void write_atomically(const std::string& path, const std::string& text);

}  // namespace naqala::play
