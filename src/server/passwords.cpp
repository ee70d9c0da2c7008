#include "server/passwords.h"

#include <sodium.h>
#include <sys/random.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <stdexcept>

#include "server/fields.h"

namespace naqala::server {

namespace {

void init_sodium() {
  static const bool ready = sodium_init() >= 0;
  if (!ready) throw std::runtime_error("libsodium failed to initialise");
}

}  // namespace

std::string hash_password(const std::string& password) {
  init_sodium();
  char out[crypto_pwhash_STRBYTES];
  if (crypto_pwhash_str(out, password.data(), password.size(), crypto_pwhash_OPSLIMIT_INTERACTIVE,
                        crypto_pwhash_MEMLIMIT_INTERACTIVE) != 0)
    throw std::runtime_error("not enough memory to hash a password");
  return out;
}

bool verify_password(const std::string& hash, const std::string& password) {
  init_sodium();
  return crypto_pwhash_str_verify(hash.c_str(), password.data(), password.size()) == 0;
}

std::string fresh_token() {
  // The game's own generator is seeded from the clock and its outputs give its state away:
  // tokens drawn from it could be predicted.
  unsigned char bytes[16];
  for (std::size_t got = 0; got < sizeof bytes;) {
    const ssize_t n = ::getrandom(bytes + got, sizeof bytes - got, 0);
    if (n < 0 && errno != EINTR) throw std::runtime_error("getrandom failed");
    if (n > 0) got += static_cast<std::size_t>(n);
  }
  std::string token;
  for (unsigned char b : bytes) {
    char hex[3];
    std::snprintf(hex, sizeof hex, "%02x", b);
    token += hex;
  }
  return token;
}

void check_password(const std::string& password) {
  if (password.size() < 8 || password.size() > 128)
    throw ApiError(400, "a password has 8 to 128 characters");
}

std::string name_key(const std::string& name) {
  const auto b = name.find_first_not_of(" \t");
  std::string key =
      b == std::string::npos ? "" : name.substr(b, name.find_last_not_of(" \t") - b + 1);
  for (char& c : key)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return key;
}

}  // namespace naqala::server
