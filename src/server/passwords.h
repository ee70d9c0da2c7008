#pragma once
// Passwords for sign-in from a new browser (docs/server.md, "Accounts"): Argon2id hashes from
// libsodium (crypto_pwhash_str at its "interactive" cost, 64 MiB and a few tenths of a second,
// so the server computes them off its network thread), and the random tokens a browser keeps.
#include <string>

namespace naqala::server {

// An encoded Argon2id hash (salt and parameters inside). Throws std::runtime_error when the
// memory cannot be had.
std::string hash_password(const std::string& password);
// Whether `password` is the one `hash` was made from.
bool verify_password(const std::string& hash, const std::string& password);

// 128 bits from the kernel's CSPRNG, as 32 hex digits.
std::string fresh_token();

// Throws ApiError 400 unless the password has 8 to 128 bytes.
void check_password(const std::string& password);

// What sign-in compares names by: trimmed, ASCII letters lower-cased.
std::string name_key(const std::string& name);

}  // namespace naqala::server
