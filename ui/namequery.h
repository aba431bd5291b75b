// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace converge {

/// What a person typed into Open by name (Ctrl+L), read as one of: `Kind/name` (the workspace's
/// names, as the CLI prints them), a backend name (a container's, a table's), a URL (a blob
/// endpoint's container or blob, a queue's, a table's) or an ARN (a DynamoDB table's). Pure:
/// the tree asks it about each row and shows the best match.
class NameQuery final
{
public:
    explicit NameQuery(const QString &text);

    bool isEmpty() const { return m_text.isEmpty(); }

    /// How well a row matches, 0 for not at all: an exact Kind/name or backend ID is best, then
    /// a backend name (the URL's or ARN's last part included), then a name without its kind.
    int score(const QString &kind, const QString &name, const QString &backendName,
              const QString &resourceId) const;

    /// The kind of a `Kind/name`, else empty.
    QString kind() const { return m_kind; }
    /// What to look up with a get when no row matches: the backend name a URL or ARN ends in,
    /// or the name typed; empty for a path (a blob's: blobs are browsed, not looked up).
    QString lookupName() const;
    /// Of a URL that names a path below its container (a blob's): the path, else empty.
    QString path() const { return m_path; }
    /// Of a URL that names a path: the URL of the container that holds it (`S3Bucket/NAME` for
    /// an object's), else empty.
    QString containerText() const { return m_containerText; }

private:
    /// Reads S3's spellings of a bucket or an object; false when the text is none of them.
    bool readS3();

    QString m_text;
    QString m_kind;          ///< from `Kind/name`, else empty
    QString m_name;          ///< the name part of `Kind/name`, or the whole text
    QString m_idName;        ///< the backend name a URL or ARN ends in, else empty
    QString m_normalId;      ///< a URL without query or trailing '/', an ARN as is
    QString m_path;          ///< a URL's path below its container
    QString m_containerText; ///< the URL of that container
};

} // namespace converge
