// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "acksecretkey.h"

#include "kubernetesname.h"

#include <QRegularExpression>
#include <QStringList>

namespace converge {

namespace {

// A Secret's data key (Kubernetes' IsConfigMapKey).
bool isSecretKey(const QString &key)
{
    static const QRegularExpression pattern(QStringLiteral("^[-._a-zA-Z0-9]+$"));
    return key.size() <= 253 && pattern.match(key).hasMatch();
}

// A namespace is a DNS-1123 label: no dots, at most 63 characters.
bool isNamespace(const QString &ns)
{
    return ns.size() <= 63 && !ns.contains(QLatin1Char('.')) && KubernetesName::isValid(ns);
}

} // namespace

AckSecretKey AckSecretKey::fromAck(const QJsonObject &reference)
{
    for (auto it = reference.begin(); it != reference.end(); ++it) {
        if (it.key() != QLatin1String("name") && it.key() != QLatin1String("key") &&
            it.key() != QLatin1String("namespace"))
            return {};
    }
    return {reference.value(QStringLiteral("namespace")).toString(),
            reference.value(QStringLiteral("name")).toString(),
            reference.value(QStringLiteral("key")).toString()};
}

AckSecretKey AckSecretKey::fromReference(const QJsonObject &reference)
{
    if (reference.size() != 1 || !reference.value(QStringLiteral("keychain")).isString())
        return {};
    const QStringList parts =
        reference.value(QStringLiteral("keychain")).toString().split(QLatin1Char('/'));
    if (parts.size() == 2)
        return {{}, parts.at(0), parts.at(1)};
    if (parts.size() == 3)
        return {parts.at(0), parts.at(1), parts.at(2)};
    return {};
}

bool AckSecretKey::isValid() const
{
    return KubernetesName::isValid(name) && isSecretKey(key) && (ns.isEmpty() || isNamespace(ns));
}

QString AckSecretKey::secretName() const
{
    return ns.isEmpty() ? name : ns + QLatin1Char('/') + name;
}

QString AckSecretKey::entry() const
{
    return secretName() + QLatin1Char('/') + key;
}

QJsonObject AckSecretKey::toAck() const
{
    QJsonObject out{{QStringLiteral("name"), name}, {QStringLiteral("key"), key}};
    if (!ns.isEmpty())
        out.insert(QStringLiteral("namespace"), ns);
    return out;
}

} // namespace converge
