// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

// Turns fuzz input into an HttpRequest, so that the canonicalisers see arbitrary methods, URLs,
// headers and bodies: line 1 the method, line 2 the URL, then `Name: value` header lines up to an
// empty line, then the body.

#include "httprequest.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QUrl>

#include <cstddef>
#include <cstdint>

namespace converge::fuzz {

inline HttpRequest requestFrom(const uint8_t *data, size_t size)
{
    const QByteArray text(reinterpret_cast<const char *>(data), qsizetype(size));
    HttpRequest request;
    qsizetype pos = 0;
    auto nextLine = [&](QByteArray *line) {
        if (pos > text.size())
            return false;
        qsizetype end = text.indexOf('\n', pos);
        if (end < 0)
            end = text.size();
        *line = text.mid(pos, end - pos);
        pos = end + 1;
        return true;
    };
    QByteArray line;
    if (nextLine(&line))
        request.method = line;
    if (nextLine(&line))
        request.url = QUrl(QString::fromUtf8(line));
    while (nextLine(&line) && !line.isEmpty()) {
        const qsizetype colon = line.indexOf(':');
        if (colon < 0)
            request.headers.append({line, QByteArray()});
        else
            request.headers.append({line.left(colon), line.mid(colon + 1).trimmed()});
    }
    if (pos < text.size())
        request.body = text.mid(pos);
    return request;
}

} // namespace converge::fuzz
