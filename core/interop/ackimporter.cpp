// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "ackimporter.h"

#include "acksecretkey.h"
#include "annotations.h"
#include "awskinds.h"
#include "interopterms.h"

#include <QMap>

#include <algorithm>

namespace converge {

namespace T = InteropTerms;

namespace {

QString ackAnnotationPath(const QString &name)
{
    return QStringLiteral("metadata.annotations[\"%1\"]").arg(name);
}

// The declared kind an ACK group/kind maps to.
struct Counterpart
{
    QString kind;                              ///< the Converge kind; empty: none
    QString version;                           ///< ACK's version
    const KindDeclaration *declared = nullptr; ///< the kind's declaration
};

Counterpart counterpartOf(const QString &group, const QString &kind)
{
    for (const ServiceDeclaration &service : AwsKinds::declarations()) {
        for (const KindDeclaration &d : service.kinds) {
            if (d.ack.isDeclared() && d.ack.kind == kind &&
                d.ack.apiVersion.section(QLatin1Char('/'), 0, 0) == group)
                return {d.kind.name, d.ack.apiVersion.section(QLatin1Char('/'), 1), &d};
        }
    }
    return {};
}

// The kinds of `group` that Converge reads, for the message about one it does not.
QStringList ackKindsOf(const QString &group)
{
    QStringList kinds;
    for (const ServiceDeclaration &service : AwsKinds::declarations()) {
        for (const KindDeclaration &d : service.kinds) {
            if (d.ack.isDeclared() && d.ack.apiVersion.section(QLatin1Char('/'), 0, 0) == group)
                kinds << d.ack.kind;
        }
    }
    return kinds;
}

} // namespace

AckImporter::AckImporter(const QList<Resource> &accounts, const QString &account)
    : m_account(account)
{
    for (const Resource &r : accounts) {
        if (r.kind == AwsKinds::accountKind())
            m_accounts.append(r);
    }
    std::sort(m_accounts.begin(), m_accounts.end(), [](const Resource &a, const Resource &b) {
        return a.metadata.name < b.metadata.name;
    });
}

QString AckImporter::accountNameFor(const QString &region)
{
    return QStringLiteral("aws-") + region;
}

bool AckImporter::handles(const QJsonObject &object) const
{
    return object.value(QStringLiteral("apiVersion"))
        .toString()
        .section(QLatin1Char('/'), 0, 0)
        .endsWith(T::ackGroupSuffix());
}

ManifestTranslator::Result AckImporter::translate(const QList<ForeignDocument> &documents) const
{
    Result result;
    const auto fail = [&result](qsizetype index, const QString &path, const QString &message) {
        result.errors.append(Error{index, path, message});
    };
    const bool accountKnown =
        m_account.isEmpty() ||
        std::any_of(m_accounts.cbegin(), m_accounts.cend(),
                    [this](const Resource &r) { return r.metadata.name == m_account; });
    QMap<QString, qsizetype> newAccounts; // region → the first document that needs it
    QString namedAccountRegion;           // of --aws-account's account when it is new
    qsizetype namedAccountDocument = -1;
    for (qsizetype i = 0; i < documents.size(); ++i) {
        const QJsonObject &o = documents.at(i).object;
        const QString apiVersion = o.value(QStringLiteral("apiVersion")).toString();
        const QString group = apiVersion.section(QLatin1Char('/'), 0, 0);
        const QString kind = o.value(QStringLiteral("kind")).toString();
        const Counterpart counterpart = counterpartOf(group, kind);
        if (counterpart.kind.isEmpty()) {
            const QStringList known = ackKindsOf(group);
            fail(i, QStringLiteral("kind"),
                 known.isEmpty()
                     ? QStringLiteral("%1 %2 has no Converge counterpart").arg(group, kind)
                     : QStringLiteral("%1 has no Converge counterpart (Converge reads the %2 of "
                                      "%3)")
                           .arg(kind, known.join(QStringLiteral(", ")), group));
            continue;
        }
        if (apiVersion.section(QLatin1Char('/'), 1) != counterpart.version) {
            fail(i, QStringLiteral("apiVersion"),
                 QStringLiteral("%1 is not a served version of %2 (%3/%4)")
                     .arg(apiVersion, kind, group, counterpart.version));
            continue;
        }
        for (const QString &key : o.keys()) {
            if (key != QLatin1String("apiVersion") && key != QLatin1String("kind") &&
                key != QLatin1String("metadata") && key != QLatin1String("spec") &&
                key != QLatin1String("status"))
                fail(i, key, QStringLiteral("is not a field of %1").arg(kind));
        }
        const QJsonObject metadata = o.value(QStringLiteral("metadata")).toObject();
        const QString name = metadata.value(QStringLiteral("name")).toString();
        if (name.isEmpty()) {
            fail(i, QStringLiteral("metadata.name"), QStringLiteral("is required"));
            continue;
        }
        const QString ns = metadata.value(QStringLiteral("namespace")).toString();
        const QString id = counterpart.kind + QLatin1Char('/') + name;
        const QJsonObject ackSpec = o.value(QStringLiteral("spec")).toObject();
        QJsonObject spec;
        const KindDeclaration &d = *counterpart.declared;
        const DeclaredAck &ack = d.ack;
        QStringList plainDropped; // ACK's names of secrets not kept
        for (const DeclaredAck::PlainSecret &plain : ack.plainSecrets) {
            bool secret = ackSpec.contains(ack.ackField(plain.field));
            for (auto it = plain.when.begin(); it != plain.when.end(); ++it)
                secret = secret && ackSpec.value(ack.ackField(it.key())) == it.value();
            if (!secret)
                continue;
            const QString at = QStringLiteral("spec.") + ack.ackField(plain.field);
            if (plain.into.isEmpty()) {
                fail(i, at,
                     QStringLiteral("holds a secret in plain text, which Converge never "
                                    "stores, and Converge's %1 cannot take this value by "
                                    "reference: keep this file for the cluster only")
                         .arg(d.kind.name));
                continue;
            }
            // Kept, by reference: the value itself is dropped here and said nowhere.
            plainDropped << ack.ackField(plain.field);
            const QString entry = (ns.isEmpty() ? QString() : ns + QLatin1Char('/')) + name +
                                  QLatin1Char('/') + plain.field;
            spec.insert(plain.into, QJsonObject{{QStringLiteral("keychain"), entry}});
            result.notes.append(
                Error{i, at,
                      QStringLiteral("%1: the value is in the file in plain text, which Converge "
                                     "never stores: it is left out; store it in the OS keychain "
                                     "as \"%2\" (or set spec.%3 to {env: VARIABLE} or {file: "
                                     "PATH}); until then it is Ready False")
                          .arg(id, entry, plain.into)});
        }
        QMap<QString, QString> fromAck; // ACK's name → the spec field
        for (const FieldSchema &f : d.kind.spec.fields) {
            if (f.name != QLatin1String("owner") && !ack.omit.contains(f.name))
                fromAck.insert(ack.ackField(f.name), f.name);
        }
        for (auto it = ackSpec.begin(); it != ackSpec.end(); ++it) {
            if (plainDropped.contains(it.key()))
                continue;
            const QString at = QStringLiteral("spec.") + it.key();
            const auto field = fromAck.constFind(it.key());
            if (field == fromAck.cend()) {
                fail(i, at,
                     QStringLiteral("is not supported by Converge's %1; remove it (or keep "
                                    "this file for the cluster only)")
                         .arg(d.kind.name));
                continue;
            }
            const bool isReference =
                std::any_of(d.kind.references.cbegin(), d.kind.references.cend(),
                            [&](const KindReference &r) { return r.field == *field; });
            if (isReference) {
                // ACK's {from: {name, namespace?}}: a workspace has one namespace.
                const QJsonObject from =
                    it.value().toObject().value(QStringLiteral("from")).toObject();
                const QString refNamespace = from.value(QStringLiteral("namespace")).toString();
                if (!refNamespace.isEmpty() && refNamespace != ns)
                    fail(i, at + QStringLiteral(".from.namespace"),
                         QStringLiteral("names another namespace (%1); a workspace has one: "
                                        "give the ARN instead")
                             .arg(refNamespace));
                spec.insert(*field, QJsonObject{{QStringLiteral("name"),
                                                 from.value(QStringLiteral("name"))}});
            } else if (ack.secretKeyRefs.contains(*field)) {
                const AckSecretKey key = AckSecretKey::fromAck(it.value().toObject());
                if (!key.isValid()) {
                    fail(i, at,
                         QStringLiteral("must name a Kubernetes Secret and its key: "
                                        "{name, key, namespace?}"));
                    continue;
                }
                spec.insert(*field, QJsonObject{{QStringLiteral("keychain"), key.entry()}});
                result.notes.append(
                    Error{i, at,
                          QStringLiteral("%1: its value is the key \"%2\" of the Kubernetes Secret "
                                         "%3, which Converge cannot read: store the value in the "
                                         "OS keychain as \"%4\" (or set %5 to {env: VARIABLE} or "
                                         "{file: PATH}); until then it is Ready False")
                              .arg(id, key.key, key.secretName(), key.entry(), at)});
            } else {
                spec.insert(*field, it.value());
            }
        }
        const QString nameField = d.kind.backendNameField;
        if (!nameField.isEmpty() && spec.value(nameField) == name)
            spec.remove(nameField);

        QJsonObject annotations = metadata.value(QStringLiteral("annotations")).toObject();
        const QString region = annotations.take(T::ackRegion()).toString();
        QString account = m_account;
        if (!account.isEmpty()) {
            if (!accountKnown && namedAccountRegion.isEmpty() && !region.isEmpty()) {
                namedAccountRegion = region;
                namedAccountDocument = i;
            }
        } else if (region.isEmpty()) {
            fail(i, QStringLiteral("metadata"),
                 QStringLiteral("has no %1 annotation: give the region, or name the account "
                                "with --aws-account")
                     .arg(T::ackRegion()));
            continue;
        } else {
            const auto found =
                std::find_if(m_accounts.cbegin(), m_accounts.cend(), [&region](const Resource &r) {
                    return r.spec.value(QStringLiteral("region")) == region;
                });
            if (found != m_accounts.cend()) {
                account = found->metadata.name;
            } else {
                account = accountNameFor(region);
                if (!newAccounts.contains(region))
                    newAccounts.insert(region, i);
            }
        }

        QString policy;
        const QString readOnly = annotations.take(T::ackReadOnly()).toString();
        const QString deletion = annotations.take(T::ackDeletionPolicy()).toString();
        if (!readOnly.isEmpty() && readOnly != QLatin1String("true") &&
            readOnly != QLatin1String("false"))
            fail(i, ackAnnotationPath(T::ackReadOnly()),
                 QStringLiteral("\"%1\" is not \"true\" or \"false\"").arg(readOnly));
        if (!deletion.isEmpty() && deletion != QLatin1String("delete") &&
            deletion != QLatin1String("retain"))
            fail(i, ackAnnotationPath(T::ackDeletionPolicy()),
                 QStringLiteral("\"%1\" is not delete or retain").arg(deletion));
        if (readOnly == QLatin1String("true"))
            policy = QStringLiteral("skip"); // observe only: it never deletes either
        else if (deletion == QLatin1String("retain"))
            policy = QStringLiteral("detach-on-delete");
        const QString adoption = annotations.value(T::ackAdoptionPolicy()).toString();
        if (!adoption.isEmpty() && adoption != QLatin1String("adopt") &&
            adoption != QLatin1String("adopt-or-create"))
            fail(i, ackAnnotationPath(T::ackAdoptionPolicy()),
                 QStringLiteral("\"%1\" is not adopt or adopt-or-create").arg(adoption));
        // Export writes them again from the spec (or the resource ID once there is one).
        annotations.remove(T::ackAdoptionFields());
        if (!policy.isEmpty())
            annotations.insert(Annotations::reconcilePolicy(), policy);

        spec.insert(QStringLiteral("owner"), QJsonObject{{QStringLiteral("name"), account}});
        QJsonObject out{{QStringLiteral("name"), name}};
        if (metadata.contains(QStringLiteral("labels")))
            out.insert(QStringLiteral("labels"), metadata.value(QStringLiteral("labels")));
        if (!annotations.isEmpty())
            out.insert(QStringLiteral("annotations"), annotations);
        result.objects.append(Translated{i,
                                         {{QStringLiteral("apiVersion"), AwsKinds::apiVersion()},
                                          {QStringLiteral("kind"), counterpart.kind},
                                          {QStringLiteral("metadata"), out},
                                          {QStringLiteral("spec"), spec}}});
        if (!accountKnown && namedAccountDocument < 0)
            namedAccountDocument = i;
    }
    const auto newAccount = [](const QString &name, const QString &region) {
        // No credential: Ready stays False until the account is connected.
        return QJsonObject{
            {QStringLiteral("apiVersion"), AwsKinds::apiVersion()},
            {QStringLiteral("kind"), AwsKinds::accountKind()},
            {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), name}}},
            {QStringLiteral("spec"), QJsonObject{{QStringLiteral("region"), region},
                                                 {QStringLiteral("credential"), QJsonObject()}}}};
    };
    for (auto it = newAccounts.cbegin(); it != newAccounts.cend(); ++it)
        result.objects.append(
            Translated{it.value(), newAccount(accountNameFor(it.key()), it.key())});
    if (!accountKnown && namedAccountDocument >= 0) {
        if (namedAccountRegion.isEmpty()) {
            for (qsizetype i = 0; i < documents.size(); ++i)
                fail(i, {},
                     QStringLiteral("the AwsAccount \"%1\" (--aws-account) is not in the "
                                    "workspace, and no document gives a region to create it "
                                    "with: add the account, or give %2")
                         .arg(m_account, T::ackRegion()));
        } else {
            result.objects.append(
                Translated{namedAccountDocument, newAccount(m_account, namedAccountRegion)});
        }
    }
    if (!result.errors.isEmpty()) {
        result.objects.clear();
        result.notes.clear();
    }
    return result;
}

} // namespace converge
