// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "apicaller.h"
#include "declaredcollections.h"
#include "declaredhook.h"
#include "declaredsecrets.h"
#include "kinddeclaration.h"
#include "manager.h"

#include <QMap>

#include <chrono>
#include <functional>
#include <memory>

namespace converge {

class CredentialStore;

/// The one Manager of every declared kind: it does what the kind's declaration says, through an
/// ApiCaller of the service's protocol.
///
/// get = the read call (a list filtered by the name where the API has no single get), then the
/// tags call; the state member, when declared, makes an operation in progress or a failure.
/// create = the create call with the fields it carries (an "already exists" code is success:
/// the resource is found and adopted), then get. update = the tag calls for changed tags, then
/// each update call that carries a changed field, then get; a changed field that no call carries
/// is refused without a write. deleteResource = the delete call (NotFound is gone), then get while
/// the state says deleting. list = the list call, page by page with the paginator's tokens.
class DeclaredManager final : public Manager
{
public:
    struct Options
    {
        std::chrono::milliseconds pollAfter{500};
        int maxReadPages = 50; ///< pages a filtered read follows before it gives up
    };

    /// `keychain` resolves `{keychain: ENTRY}` values (SecretReference); it may be null, and
    /// must outlive the Manager.
    DeclaredManager(KindDeclaration declaration, std::shared_ptr<ApiCaller> caller, Options options,
                    CredentialStore *keychain = nullptr);

    Outcome<Observation> get(const Target &target) override;
    Outcome<Observation> create(const Target &target) override;
    Outcome<Observation> update(const Target &target, const Observation &latest,
                                const QStringList &delta) override;
    Outcome<std::optional<Observation>> deleteResource(const Target &target,
                                                       const Observation &latest) override;
    Outcome<ListPage> list(const ListScope &scope) override;
    bool listIsComplete() const override { return m_declaration.listIsComplete; }
    Outcome<Observation> fromListing(const Target &target, Observation item) override;
    bool createAdopts() const override
    {
        return !m_declaration.alreadyExists.isEmpty() || m_declaration.createIsIdempotent;
    }

    /// The resource's name in the backend: its spec's name field, else metadata.name.
    QString backendName(const Resource &resource) const;
    /// `call`'s input for a resource called `name` with backend ID `id`; `$spec.FIELD` stands for
    /// the value of `spec`'s FIELD.
    static QJsonObject input(const DeclaredCall &call, const QString &name, const QString &id,
                             const QJsonObject &spec = {});
    /// `target`'s spec with the backend ID of every resource it names (`topicRef`) in the
    /// reference's ID field (`topicARN`), as the Manager sends it.
    QJsonObject resolvedSpec(const Target &target) const;

private:
    Outcome<ApiCaller::Reply> send(const DeclaredCall &call, QJsonObject input);
    /// send(), for the helpers that walk or follow (DeclaredListings, DeclaredOperations).
    std::function<Outcome<ApiCaller::Reply>(const DeclaredCall &, const QJsonObject &)> sender();
    /// A page of the list call with `extra` members in its input (a parent's, listWithin).
    Outcome<ListPage> list(const ListScope &scope, const QJsonObject &extra);
    /// The backend ID: `known` when there is one, else what the locate call answers, else "".
    Outcome<QString> locate(const QString &name, const QString &known,
                            const QJsonObject &spec = {});
    /// A kind with neither a name nor a way to find its ID from one (a KMS key): its resources
    /// are read by the ID the workspace recorded, or by their name taken as one.
    bool knownByIdOnly() const;
    /// Why `resource`, as read, counts as gone though AWS still answers it (a secret's
    /// DeletedDate, a key's PendingDeletion); empty when it does not.
    QString scheduledForDeletion(const QJsonObject &resource) const;
    /// get() of a resource whose backend ID may be known already (a create's answer); `sent`
    /// are the spec fields this reconcile has just written.
    Outcome<Observation> observeTarget(const Target &target, const QString &knownId,
                                       const QSet<QString> &sent = {});
    /// `call`'s input with the fields it carries from `spec`, values given by reference read
    /// (and added to `secrets`, so that no error repeats them).
    Outcome<QJsonObject> request(const DeclaredCall &call, const QJsonObject &spec,
                                 const QString &name, const QString &id, const Observation *latest,
                                 QStringList *secrets) const;
    /// send(), with `secrets` taken out of any error it answers.
    Outcome<ApiCaller::Reply> sendSecretly(const DeclaredCall &call,
                                           const Outcome<QJsonObject> &input,
                                           const QStringList &secrets);
    Outcome<ApiCaller::Reply> readResource(const QString &name, const QString &id,
                                           const QJsonObject &spec, QJsonObject *resource);
    /// What `resource` (a read's answer, or a create's that answers the resource) observes,
    /// with what follows a read: follow reads, the state, the hook, secrets, collections, tags.
    Outcome<Observation> observed(const Target &target, const QJsonObject &spec,
                                  const QString &name, const QString &id, QJsonObject resource,
                                  const QString &requestId, const QSet<QString> &sent);
    /// `o` (read or listed) as the workspace holds what the backend does not answer: the owner,
    /// the name field, write-only fields and references as asked.
    void asTheWorkspaceHasIt(const Target &target, const QJsonObject &spec, const QString &name,
                             Observation &o) const;
    Observation observe(QJsonObject resource, const QString &requestId,
                        const QString &id = {}) const;
    std::optional<BackendError> applyState(Observation &observation,
                                           const QJsonObject &resource) const;

    KindDeclaration m_declaration;
    std::shared_ptr<ApiCaller> m_caller;
    Options m_options;
    CredentialStore *m_keychain = nullptr;
    DeclaredCollections m_collections;
    DeclaredSecrets m_secrets;
    std::unique_ptr<DeclaredHook> m_hook; ///< the declaration's; one that does nothing for none
};

} // namespace converge
