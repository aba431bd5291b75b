// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "crc32.h"

#include <array>

namespace converge {

namespace {

constexpr std::array<quint32, 256> makeTable()
{
    std::array<quint32, 256> table{};
    for (quint32 i = 0; i < 256; ++i) {
        quint32 c = i;
        for (int bit = 0; bit < 8; ++bit)
            c = (c & 1u) ? (0xEDB88320u ^ (c >> 1)) : (c >> 1);
        table[i] = c;
    }
    return table;
}

constexpr std::array<quint32, 256> table = makeTable();

} // namespace

Crc32 &Crc32::add(QByteArrayView data)
{
    quint32 c = m_state;
    for (const char byte : data)
        c = table[(c ^ quint8(byte)) & 0xFFu] ^ (c >> 8);
    m_state = c;
    return *this;
}

} // namespace converge
