// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArrayView>
#include <QtGlobal>

namespace converge {

/// CRC-32 as zlib, PNG and DynamoDB's `x-amz-crc32` header compute it (IEEE 802.3, reflected,
/// polynomial 0xEDB88320, initial and final XOR 0xFFFFFFFF). Qt has none public: qChecksum is
/// CRC-16.
class Crc32 final
{
public:
    /// The checksum of `data` in one go.
    static quint32 of(QByteArrayView data) { return Crc32().add(data).value(); }

    /// Feeds more bytes; the result equals of() over everything fed so far.
    Crc32 &add(QByteArrayView data);
    quint32 value() const { return ~m_state; }

private:
    quint32 m_state = 0xFFFFFFFFu;
};

} // namespace converge
