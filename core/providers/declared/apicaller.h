// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "outcome.h"

#include <QJsonObject>
#include <QString>

namespace converge {

/// Sends one operation of a model-described API with its input as JSON, and answers its output
/// as JSON, whatever the protocol puts on the wire (AWS's json and query protocols). What a
/// DeclaredManager talks through; used from one worker thread.
class ApiCaller
{
public:
    /// A successful answer: the output (empty for operations that answer nothing) and the
    /// backend's request ID.
    struct Reply
    {
        QJsonObject body;
        QString requestId;
    };

    virtual ~ApiCaller() = default;
    virtual Outcome<Reply> call(const QString &operation, const QJsonObject &input) = 0;
    /// call() with the blob member `member` given as bytes rather than as base64 in `input`
    /// (an S3 object's Body, a part of 8 MiB): a caller whose protocol sends it as the body as
    /// it is skips the round trip through text. By default, base64 in `input`.
    virtual Outcome<Reply> call(const QString &operation, QJsonObject input, const QString &member,
                                const QByteArray &bytes)
    {
        input.insert(member, QString::fromLatin1(bytes.toBase64()));
        return call(operation, input);
    }
    /// The region the caller's requests go to (what S3 wants as a new bucket's location);
    /// empty where it does not matter.
    virtual QString region() const { return {}; }
};

} // namespace converge
