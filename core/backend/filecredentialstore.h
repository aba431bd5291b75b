// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "credentialstore.h"

#include <QList>
#include <QPair>
#include <QString>

namespace converge {

/// Secrets in a plain file the user chose explicitly (`credential: {file: PATH}`): one
/// `name=value` per line; blank lines and lines starting with '#' are ignored.
///
/// The file must not be readable or writable by group or others (mode 0600 or stricter), or
/// every call refuses it with a message saying how to fix it. Writes replace the file atomically
/// and create it with mode 0600; they keep the entries but not comments or blank lines.
class FileCredentialStore final : public CredentialStore
{
public:
    explicit FileCredentialStore(QString path);
    /// `path` with a leading `~` as the home folder, as manifests write paths.
    static QString expandHome(const QString &path);
    /// Whether the file's mode lets group or others read, write or run it (0600 or stricter
    /// is private).
    static bool isShared(const QString &path);

    const QString &path() const { return m_path; }

    QString description() const override;
    std::optional<QString> read(const QString &name, BackendError *error = nullptr) override;
    bool write(const QString &name, const QString &secret, BackendError *error = nullptr) override;
    bool remove(const QString &name, BackendError *error = nullptr) override;

    /// Parses the file format; on error names the line (never its content, which may be a secret).
    static bool parse(const QByteArray &content, QList<QPair<QString, QString>> *entries,
                      QString *error);

private:
    /// Checks the mode and reads the entries; a missing file gives no entries and `exists` false.
    bool load(QList<QPair<QString, QString>> *entries, bool *exists, BackendError *error) const;
    bool save(const QList<QPair<QString, QString>> &entries, BackendError *error) const;

    QString m_path;
};

} // namespace converge
