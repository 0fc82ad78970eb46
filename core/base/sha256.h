// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace ks {

//! SHA-256 (FIPS 180-4), fed in pieces: what a database records of its trace (`source_sha256`).
class Sha256 {
public:
    Sha256();
    void add(std::string_view bytes);
    //! The digest as 64 lowercase hex digits; the object is spent after it.
    std::string hex();

private:
    void block(const uint8_t *p);

    std::array<uint32_t, 8> m_state;
    std::array<uint8_t, 64> m_pending {};
    size_t m_pendingSize = 0;
    uint64_t m_bytes = 0;
};

//! The hex SHA-256 of \a file, read in 1 MiB pieces; empty when it cannot be read.
std::string fileSha256(const std::string &file);

} // namespace ks
