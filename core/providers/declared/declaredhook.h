// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "apicaller.h"
#include "kinddeclaration.h"
#include "manager.h"

#include <QSet>
#include <QStringList>

#include <memory>
#include <optional>

namespace converge {

class CredentialStore;

/// What a declaration cannot say about an irregular service, in C++ (the declaration's `hook`):
/// the points where DeclaredManager lets it complete a request, act before a write, or correct
/// what was observed. Each hook is a class of its own, tested on its own; every point does
/// nothing unless the hook overrides it.
class DeclaredHook
{
public:
    virtual ~DeclaredHook() = default;

    /// The hooks Converge has, as declarations name them (what DeclarationReader accepts: here,
    /// so that reading a declaration needs no hook's code).
    static QStringList names()
    {
        return {QStringLiteral("dynamoDbTable"),   QStringLiteral("iamPolicyVersions"),
                QStringLiteral("lambdaFunction"),  QStringLiteral("s3BucketLocation"),
                QStringLiteral("spannerDatabase"), QStringLiteral("spannerInstance")};
    }
    /// The hook `name` (one of names(); for any other, one that does nothing) over `caller`;
    /// `keychain` (may be null) resolves values given by reference. Both must outlive it.
    static std::unique_ptr<DeclaredHook> make(const QString &name, ApiCaller &caller,
                                              CredentialStore *keychain);

    /// `input`, the request of `call` (the create, an update or the delete) for `spec`,
    /// completed; `latest` is the resource as last observed (null for a create); a value read by
    /// reference is added to `secrets`, so that no error repeats it.
    virtual Outcome<QJsonObject> completeInput(const DeclaredCall &call, QJsonObject input,
                                               const QJsonObject &spec, const Observation *latest,
                                               QStringList *secrets)
    {
        Q_UNUSED(call)
        Q_UNUSED(spec)
        Q_UNUSED(latest)
        Q_UNUSED(secrets)
        return input;
    }
    /// Before update `call` is sent to the resource `id`.
    virtual std::optional<BackendError> beforeUpdate(const DeclaredCall &call, const QString &id)
    {
        Q_UNUSED(call)
        Q_UNUSED(id)
        return std::nullopt;
    }
    /// Before the delete call is sent.
    virtual std::optional<BackendError> beforeDelete(const QString &id)
    {
        Q_UNUSED(id)
        return std::nullopt;
    }
    /// `o`, an item of a listing, before anyone sees it: a listing knows no spec, so what
    /// may be a secret given by reference elsewhere is left out of it.
    virtual void listed(Observation &o) { Q_UNUSED(o) }
    /// `o`, observed from `resource` (the read's answer) for `target` whose spec, references
    /// resolved, is `desired`, corrected where the API answers a field otherwise than the spec
    /// holds it; `sent` are the spec fields this reconcile has just written.
    virtual std::optional<BackendError> observe(Observation &o, const QJsonObject &resource,
                                                const QJsonObject &desired, const Target &target,
                                                const QSet<QString> &sent)
    {
        Q_UNUSED(o)
        Q_UNUSED(resource)
        Q_UNUSED(desired)
        Q_UNUSED(target)
        Q_UNUSED(sent)
        return std::nullopt;
    }
};

} // namespace converge
