// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "backenderror.h"
#include "outcome.h"

#include <QHash>
#include <QString>

#include <functional>
#include <utility>

class QFile;

namespace converge {

/// What a Manager compares a local file by (a blob's MD5, an S3 object's ETag), computed again
/// only when the file's size or modification time moved, so that a resync does not read every
/// unchanged `contentFile` again. One per Manager, used from its worker thread.
class ContentFileDigests final
{
public:
    using Compute = std::function<QByteArray(QFile &file)>;

    /// `compute`'s digest of the file at `path` (opened for reading), or an Invalid
    /// `ContentFileUnreadable` error naming the file and why.
    Outcome<QByteArray> of(const QString &path, const Compute &compute);

    /// spec.contentFile resolved against the working directory of the process.
    static QString resolve(const QString &contentFile);
    static BackendError unreadable(const QString &path, const QString &why);

private:
    QHash<QString, std::pair<QString, QByteArray>> m_cache; ///< path → (size|mtime, digest)
};

} // namespace converge
