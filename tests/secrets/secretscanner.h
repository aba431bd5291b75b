// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace converge::test {

/// Looks for known secrets in files the test suite wrote: each secret raw, base64-encoded,
/// percent-encoded and, for a base64 secret (an account key), decoded; and any SAS signature
/// (`sig=` followed by a signature-like value, also as `sig%3D`). Findings name the file and the
/// secret, never its value, so that the scan's own output is safe to keep. Bearer tokens are
/// found by their shape (a JWT), as they change with every sign-in.
class SecretScanner final
{
public:
    struct Finding
    {
        QString file;
        QString secret; ///< the secret's name, e.g. "Azurite account key"
        QString form;   ///< raw, base64, percent-encoded, decoded, signature
        qint64 offset = 0;
        QString toString() const;
    };

    /// Adds a secret under a name; values shorter than 12 bytes are refused (false), as they
    /// would be found everywhere.
    bool addSecret(const QString &name, const QByteArray &value);
    /// The Azurite key and the AWS test keys the suite uses.
    void addTestSecrets();
    /// Files that hold a secret on purpose (a test's credential file, written readable by others
    /// to see it refused): a wildcard pattern on the path relative to the folder scanned.
    void addAllowed(const QString &pattern);
    /// Reads patterns from a file: one a line, first word the pattern, the rest why; # comments.
    bool addAllowedFrom(const QString &file);

    QList<Finding> scan(const QByteArray &data, const QString &file) const;
    /// A file, or every file below a folder. Credential files a test made on purpose (mode 0600,
    /// not a SQLite database: the `file:` credential source) are skipped.
    QList<Finding> scanPath(const QString &path) const;
    /// How many files the last scanPath() calls read.
    int filesScanned() const { return m_filesScanned; }

private:
    struct Needle
    {
        QString secret;
        QString form;
        QByteArray bytes;
    };
    QList<Needle> m_needles;
    QStringList m_allowed;
    mutable int m_filesScanned = 0;
};

} // namespace converge::test
