// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "declaredsecrets.h"

#include "apivalues.h"
#include "declaredmanager.h"
#include "secretreference.h"

namespace converge {

DeclaredSecrets::DeclaredSecrets(const KindDeclaration &declaration, CredentialStore *keychain,
                                 Send send)
    : m_declaration(declaration)
    , m_keychain(keychain)
    , m_send(std::move(send))
{}

std::optional<BackendError> DeclaredSecrets::resolve(QJsonObject &values, const QJsonObject &spec,
                                                     QStringList *secrets) const
{
    for (const DeclaredSecret &secret : m_declaration.secrets) {
        // The member may be another field's too (an SSM parameter's Value): only a reference
        // given in the secret's own field is read.
        const auto given = values.constFind(secret.member);
        if (given == values.constEnd() || !spec.contains(secret.field) || !given->isObject())
            continue;
        Outcome<QString> value = SecretReference::resolve(given->toObject(), m_keychain,
                                                          QStringLiteral("spec.") + secret.field);
        if (!value)
            return value.error();
        secrets->append(value.value());
        values.insert(secret.member, value.value());
    }
    return std::nullopt;
}

std::optional<BackendError> DeclaredSecrets::compare(Observation &o,
                                                     const QJsonObject &desired) const
{
    for (const DeclaredSecret &secret : m_declaration.secrets) {
        const QJsonObject reference = desired.value(secret.field).toObject();
        if (reference.isEmpty())
            continue;
        Outcome<QString> wanted =
            SecretReference::resolve(reference, m_keychain, QStringLiteral("spec.") + secret.field);
        if (!wanted)
            return wanted.error();
        auto answer =
            m_send(secret.read, DeclaredManager::input(secret.read, o.name, o.resourceId, desired));
        // A resource without a value yet (made elsewhere without one) differs like any other.
        if (!answer && answer.error().category != BackendError::Category::NotFound)
            return answer.error();
        const bool same =
            answer &&
            ApiValues::at(answer.value().body, secret.read.result).toString() == wanted.value();
        // Neither value is kept: the observation says only whether they agree.
        o.spec.insert(secret.field,
                      same ? QJsonValue(reference)
                           : QJsonValue(QJsonObject{
                                 {QStringLiteral("differs"),
                                  QStringLiteral("the value in AWS is not the one %1 holds")
                                      .arg(SecretReference::describe(reference))}}));
    }
    return std::nullopt;
}

} // namespace converge
