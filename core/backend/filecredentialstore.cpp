// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "filecredentialstore.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QSet>

namespace converge {

namespace {

constexpr QFileDevice::Permissions groupOrOther = QFileDevice::ReadGroup | QFileDevice::WriteGroup |
                                                  QFileDevice::ExeGroup | QFileDevice::ReadOther |
                                                  QFileDevice::WriteOther | QFileDevice::ExeOther;

} // namespace

FileCredentialStore::FileCredentialStore(QString path)
    : m_path(std::move(path))
{}

QString FileCredentialStore::description() const
{
    return QStringLiteral("the file %1").arg(m_path);
}

bool FileCredentialStore::parse(const QByteArray &content, QList<QPair<QString, QString>> *entries,
                                QString *error)
{
    QSet<QString> seen;
    int lineNumber = 0;
    for (const QByteArray &rawLine : content.split('\n')) {
        ++lineNumber;
        const QString line = QString::fromUtf8(rawLine).trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        const qsizetype eq = line.indexOf(QLatin1Char('='));
        const QString name = eq < 0 ? QString() : line.left(eq).trimmed();
        if (name.isEmpty()) {
            if (error)
                *error = QStringLiteral("line %1 is not name=value").arg(lineNumber);
            return false;
        }
        if (seen.contains(name)) {
            if (error)
                *error = QStringLiteral("line %1 repeats the name %2").arg(lineNumber).arg(name);
            return false;
        }
        seen.insert(name);
        entries->append({name, line.mid(eq + 1).trimmed()});
    }
    return true;
}

QString FileCredentialStore::expandHome(const QString &path)
{
    if (path == QLatin1String("~"))
        return QDir::homePath();
    if (path.startsWith(QLatin1String("~/")))
        return QDir::homePath() + path.mid(1);
    return path;
}

bool FileCredentialStore::isShared(const QString &path)
{
    return QFileInfo(path).permissions() & groupOrOther;
}

bool FileCredentialStore::load(QList<QPair<QString, QString>> *entries, bool *exists,
                               BackendError *error) const
{
    const QFileInfo info(m_path);
    *exists = info.exists();
    if (!*exists)
        return true;
    if (isShared(m_path)) {
        return fail(error, BackendError::Category::Invalid, QStringLiteral("InsecureFile"),
                    QStringLiteral("refusing to read secrets from %1: its mode lets other users "
                                   "read or change it. Run `chmod 600 %1` and try again")
                        .arg(m_path));
    }
    QFile file(m_path);
    if (!file.open(QIODevice::ReadOnly)) {
        return fail(error, BackendError::Category::Terminal, QStringLiteral("FileUnreadable"),
                    QStringLiteral("cannot read %1: %2").arg(m_path, file.errorString()));
    }
    QString parseError;
    if (!parse(file.readAll(), entries, &parseError)) {
        return fail(error, BackendError::Category::Invalid, QStringLiteral("MalformedFile"),
                    QStringLiteral("%1: %2").arg(m_path, parseError));
    }
    return true;
}

bool FileCredentialStore::save(const QList<QPair<QString, QString>> &entries,
                               BackendError *error) const
{
    QSaveFile file(m_path);
    if (!file.open(QIODevice::WriteOnly)) {
        return fail(error, BackendError::Category::Terminal, QStringLiteral("FileUnwritable"),
                    QStringLiteral("cannot write %1: %2").arg(m_path, file.errorString()));
    }
    // Before the first byte: the temporary file must never hold a secret with a wider mode.
    if (!file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner)) {
        file.cancelWriting();
        return fail(error, BackendError::Category::Terminal, QStringLiteral("FileUnwritable"),
                    QStringLiteral("cannot restrict the mode of %1 to 0600").arg(m_path));
    }
    QByteArray content;
    for (const auto &[name, value] : entries)
        content += name.toUtf8() + '=' + value.toUtf8() + '\n';
    file.write(content);
    if (!file.commit()) {
        return fail(error, BackendError::Category::Terminal, QStringLiteral("FileUnwritable"),
                    QStringLiteral("cannot write %1: %2").arg(m_path, file.errorString()));
    }
    return true;
}

std::optional<QString> FileCredentialStore::read(const QString &name, BackendError *error)
{
    QList<QPair<QString, QString>> entries;
    bool exists = false;
    if (!load(&entries, &exists, error))
        return std::nullopt;
    for (const auto &[key, value] : std::as_const(entries)) {
        if (key == name)
            return value;
    }
    fail(error, BackendError::Category::NotFound, QStringLiteral("CredentialNotFound"),
         exists ? QStringLiteral("%1 has no entry %2").arg(m_path, name)
                : QStringLiteral("%1 does not exist").arg(m_path));
    return std::nullopt;
}

bool FileCredentialStore::write(const QString &name, const QString &secret, BackendError *error)
{
    if (name.isEmpty() || name.contains(QLatin1Char('=')) || name.contains(QLatin1Char('\n')) ||
        name.trimmed() != name || name.startsWith(QLatin1Char('#'))) {
        return fail(error, BackendError::Category::Invalid, QStringLiteral("InvalidName"),
                    QStringLiteral("\"%1\" cannot be a name in a credential file").arg(name));
    }
    if (secret.contains(QLatin1Char('\n')) || secret.trimmed() != secret) {
        return fail(error, BackendError::Category::Invalid, QStringLiteral("InvalidSecret"),
                    QStringLiteral("the secret for %1 has line breaks or surrounding spaces, "
                                   "which a credential file cannot hold")
                        .arg(name));
    }
    QList<QPair<QString, QString>> entries;
    bool exists = false;
    if (!load(&entries, &exists, error))
        return false;
    bool replaced = false;
    for (auto &entry : entries) {
        if (entry.first == name) {
            entry.second = secret;
            replaced = true;
        }
    }
    if (!replaced)
        entries.append({name, secret});
    return save(entries, error);
}

bool FileCredentialStore::remove(const QString &name, BackendError *error)
{
    QList<QPair<QString, QString>> entries;
    bool exists = false;
    if (!load(&entries, &exists, error))
        return false;
    const qsizetype removed =
        entries.removeIf([&name](const auto &entry) { return entry.first == name; });
    return removed == 0 || save(entries, error);
}

} // namespace converge
