// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT

// The HTTP/1.1 answer reader, fed in the pieces a socket might deliver: the first byte chooses
// the piece size, the rest is the wire. Checks its promises, not just that it survives: a body
// never beyond the limit, a complete answer always a final status.

#include "httpresponseparser.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using converge::HttpResponseParser;
    if (size == 0)
        return 0;
    const qsizetype step = 1 + data[0] % 64;
    const bool head = data[0] & 0x80;
    const QByteArrayView wire(reinterpret_cast<const char *>(data) + 1, qsizetype(size) - 1);
    constexpr qint64 limit = 4096;
    HttpResponseParser parser(head, limit);
    HttpResponseParser::State state = HttpResponseParser::State::Incomplete;
    for (qsizetype at = 0; at < wire.size() && state == HttpResponseParser::State::Incomplete;
         at += step) {
        state = parser.feed(wire.sliced(at, std::min(step, wire.size() - at)));
    }
    if (state == HttpResponseParser::State::Incomplete)
        state = parser.finish();
    if (parser.body().size() > limit)
        std::abort();
    if (state == HttpResponseParser::State::Complete &&
        (parser.status() < 200 || parser.status() > 999 || !parser.errorString().isEmpty()))
        std::abort();
    if (state == HttpResponseParser::State::Failed && parser.errorString().isEmpty())
        std::abort();
    return 0;
}
