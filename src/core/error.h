#pragma once
// Errors a user can cause. Every message says what was wrong and what is allowed;
// the CLI prints it and exits with status 2.
#include <stdexcept>
#include <string>

namespace naqala {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A variant spec, option or variant file that is not valid.
class VariantError : public Error {
 public:
  using Error::Error;
};

// Text that does not parse: a position, a record, a move string.
class ParseError : public Error {
 public:
  using Error::Error;
};

// A well-formed move that the rules do not allow here.
class IllegalMoveError : public Error {
 public:
  using Error::Error;
};

}  // namespace naqala
