// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "secretreference.h"

#include "credentialstore.h"
#include "filecredentialstore.h"

#include <QFile>
#include <QFileInfo>

namespace converge {

namespace {

const QString envKey = QStringLiteral("env");
const QString keychainKey = QStringLiteral("keychain");
const QString fileKey = QStringLiteral("file");

BackendError referenceError(BackendError::Category category, const QString &code,
                            const QString &message)
{
    BackendError error;
    error.category = category;
    error.code = code;
    error.message = message;
    return error;
}

} // namespace

QString SecretReference::check(const QJsonObject &reference)
{
    int given = 0;
    for (const QString &key : {envKey, keychainKey, fileKey}) {
        if (reference.contains(key)) {
            ++given;
            if (reference.value(key).toString().isEmpty())
                return QStringLiteral("%1 must name a source, not be empty").arg(key);
        }
    }
    if (given != 1)
        return QStringLiteral("give exactly one of env: VARIABLE, keychain: ENTRY or file: PATH "
                              "(the value itself is never written in a manifest)");
    return {};
}

QString SecretReference::describe(const QJsonObject &reference)
{
    if (reference.contains(envKey))
        return QStringLiteral("environment variable %1").arg(reference.value(envKey).toString());
    if (reference.contains(keychainKey))
        return QStringLiteral("keychain entry %1").arg(reference.value(keychainKey).toString());
    return QStringLiteral("file %1").arg(reference.value(fileKey).toString());
}

Outcome<QString> SecretReference::resolve(const QJsonObject &reference, CredentialStore *keychain,
                                          const QString &field)
{
    using Category = BackendError::Category;
    if (const QString bad = check(reference); !bad.isEmpty())
        return referenceError(Category::Invalid, QStringLiteral("InvalidSecretReference"),
                              QStringLiteral("%1: %2").arg(field, bad));
    if (reference.contains(envKey)) {
        const QString name = reference.value(envKey).toString();
        if (!qEnvironmentVariableIsSet(name.toLocal8Bit().constData()))
            return referenceError(Category::Invalid, QStringLiteral("SecretNotFound"),
                                  QStringLiteral("%1: the environment variable %2 is not set in "
                                                 "Converge's environment")
                                      .arg(field, name));
        return qEnvironmentVariable(name.toLocal8Bit().constData());
    }
    if (reference.contains(keychainKey)) {
        const QString entry = reference.value(keychainKey).toString();
        if (!keychain)
            return referenceError(Category::Terminal, QStringLiteral("KeychainUnavailable"),
                                  QStringLiteral("%1: no OS keychain is available to this "
                                                 "process for the entry %2")
                                      .arg(field, entry));
        BackendError error;
        if (std::optional<QString> value = keychain->read(entry, &error))
            return *value;
        error.message = QStringLiteral("%1: %2").arg(field, error.message);
        return error;
    }
    const QString path = FileCredentialStore::expandHome(reference.value(fileKey).toString());
    const QFileInfo info(path);
    if (!info.exists())
        return referenceError(Category::Invalid, QStringLiteral("SecretNotFound"),
                              QStringLiteral("%1: the file %2 does not exist").arg(field, path));
    if (FileCredentialStore::isShared(path))
        return referenceError(Category::Invalid, QStringLiteral("InsecureFile"),
                              QStringLiteral("%1: refusing to read a secret from %2: its mode "
                                             "lets other users read or change it. Run `chmod 600 "
                                             "%2` and try again")
                                  .arg(field, path));
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return referenceError(
            Category::Terminal, QStringLiteral("FileUnreadable"),
            QStringLiteral("%1: cannot read %2: %3").arg(field, path, file.errorString()));
    return QString::fromUtf8(file.readAll());
}

} // namespace converge
