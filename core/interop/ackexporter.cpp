// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "ackexporter.h"

#include "acksecretkey.h"
#include "annotations.h"
#include "awskinds.h"
#include "interopterms.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>

namespace converge {

namespace T = InteropTerms;

namespace {

// A DynamoDBTable's spec as ACK's Table: the same fields, with the two ACK needs said.
// How a reference {env|keychain|file: …} is said, without its value (there is none in it).
QString ackReferenceDescription(const QJsonObject &reference)
{
    if (reference.contains(QStringLiteral("env")))
        return QStringLiteral("environment variable %1")
            .arg(reference.value(QStringLiteral("env")).toString());
    if (reference.contains(QStringLiteral("keychain")))
        return QStringLiteral("keychain entry %1")
            .arg(reference.value(QStringLiteral("keychain")).toString());
    return QStringLiteral("file %1").arg(reference.value(QStringLiteral("file")).toString());
}

// `value` (at `path`, under `schema`) without the values given by reference where text may
// stand (a function's environment variables): ACK holds text there, and a desktop's secret is
// not written out. Each one left out is said in `notes`.
QJsonValue withoutReferences(const QJsonValue &value, const FieldSchema &schema,
                             const QString &path, const QString &id, QStringList &notes)
{
    if (schema.type == FieldSchema::Type::Object && value.isObject()) {
        QJsonObject out = value.toObject();
        for (const FieldSchema &f : schema.fields) {
            if (out.contains(f.name))
                out.insert(f.name, withoutReferences(out.value(f.name), f,
                                                     path + QLatin1Char('.') + f.name, id, notes));
        }
        return out;
    }
    if (schema.type == FieldSchema::Type::Map && value.isObject() && !schema.items.isEmpty() &&
        schema.items.first().orReference) {
        QJsonObject out = value.toObject();
        for (const QString &key : value.toObject().keys()) {
            if (!out.value(key).isObject())
                continue;
            notes.append(
                QStringLiteral("%1: %2.%3 is not exported: it is the %4 on this "
                               "desktop, and ACK holds the value itself: set it on "
                               "the cluster")
                    .arg(id, path, key, ackReferenceDescription(out.value(key).toObject())));
            out.remove(key);
        }
        return out;
    }
    return value;
}

// A declared kind's spec as its ACK counterpart, as its declaration maps it; what cannot go is
// said in `notes`.
QJsonObject declaredSpec(const Resource &r, const KindDeclaration &d, const QString &id,
                         QStringList &notes)
{
    const DeclaredAck &ack = d.ack;
    QJsonObject spec;
    for (auto it = r.spec.begin(); it != r.spec.end(); ++it) {
        const QString &field = it.key();
        if (field == QLatin1String("owner"))
            continue;
        if (ack.omit.contains(field)) {
            notes.append(QStringLiteral("%1: spec.%2 is not exported: ACK's %3 has no such field "
                                        "(keep it in Converge, or set it in AWS otherwise)")
                             .arg(id, field, ack.kind));
            continue;
        }
        const bool isReference =
            std::any_of(d.kind.references.cbegin(), d.kind.references.cend(),
                        [&](const KindReference &ref) { return ref.field == field; });
        if (isReference) {
            spec.insert(ack.ackField(field),
                        QJsonObject{{QStringLiteral("from"),
                                     QJsonObject{{QStringLiteral("name"),
                                                  it.value()[QStringLiteral("name")]}}}});
        } else if (ack.secretKeyRefs.contains(field)) {
            const AckSecretKey key = AckSecretKey::fromReference(it.value().toObject());
            if (!key.isValid()) {
                notes.append(QStringLiteral("%1: spec.%2 is not exported: the %3 is a value on "
                                            "this desktop, and ACK reads a Kubernetes Secret's "
                                            "key: create the Secret and add spec.%4: {name, "
                                            "key} (a reference {keychain: NAME/KEY} is "
                                            "exported as that)")
                                 .arg(id, field, ackReferenceDescription(it.value().toObject()),
                                      ack.ackField(field)));
                continue;
            }
            spec.insert(ack.ackField(field), key.toAck());
            notes.append(QStringLiteral("%1: spec.%2 is the key \"%3\" of the Kubernetes Secret "
                                        "%4 (from the keychain entry %5): create that Secret "
                                        "with the value on the cluster")
                             .arg(id, ack.ackField(field), key.key, key.secretName(), key.entry()));
        } else {
            const FieldSchema *schema = d.kind.spec.field(field);
            spec.insert(ack.ackField(field),
                        schema ? withoutReferences(it.value(), *schema,
                                                   QStringLiteral("spec.") + field, id, notes)
                               : it.value());
        }
    }
    // ACK requires the backend name; Converge's defaults to metadata.name.
    const QString nameField = d.kind.backendNameField;
    if (!nameField.isEmpty() && !spec.contains(ack.ackField(nameField)))
        spec.insert(ack.ackField(nameField), r.metadata.name);
    return spec;
}

// The first of `d`'s ACK-local fields that `r` gives, or empty.
QString localField(const Resource &r, const KindDeclaration &d)
{
    for (const QString &path : d.ack.local) {
        QJsonValue value = r.spec;
        for (const QString &part : path.split(QLatin1Char('.')))
            value = value[part];
        if (!value.isUndefined() && !value.isNull())
            return path;
    }
    return {};
}

} // namespace

AckExporter::AckExporter(const Options &options)
    : m_options(options)
{}

ExportResult AckExporter::exportResources(const QList<Resource> &selection,
                                          const QList<Resource> &workspace) const
{
    ExportResult result;
    QMap<QString, QString> regions;
    for (const Resource &r : workspace) {
        if (r.kind == AwsKinds::accountKind() && r.apiVersion == AwsKinds::apiVersion())
            regions.insert(r.metadata.name, r.spec.value(QStringLiteral("region")).toString());
    }
    for (const Resource &r : selection) {
        const QString id = r.kind + QLatin1Char('/') + r.metadata.name;
        if (r.apiVersion != AwsKinds::apiVersion())
            continue; // another provider's kind: the other target's business
        if (r.kind == AwsKinds::accountKind()) {
            result.notes.append(
                QStringLiteral("%1: not a resource in ACK: its region is written on each "
                               "resource (services.k8s.aws/region); its credential is the "
                               "controller's, not exported")
                    .arg(id));
            continue;
        }
        const KindDeclaration *declared = AwsKinds::declaration(r.kind);
        if (!declared || !declared->ack.isDeclared()) {
            result.dropped.append(
                QStringLiteral("%1: not exported: ACK has no counterpart of this kind").arg(id));
            continue;
        }
        if (const QString local = localField(r, *declared); !local.isEmpty()) {
            result.missing.append(QStringLiteral("%1: spec.%2 names a file on this desktop, which "
                                                 "a cluster cannot read: %3")
                                      .arg(id, local, declared->ack.localInstead));
            continue;
        }
        const auto region = regions.constFind(r.ownerName());
        if (region == regions.cend() || region->isEmpty()) {
            result.missing.append(QStringLiteral("%1: its AwsAccount %2 is not in the workspace, "
                                                 "so its region is unknown: add the account")
                                      .arg(id, r.ownerName()));
            continue;
        }

        const QString apiVersion = declared->ack.apiVersion;
        const QString kind = declared->ack.kind;
        const QJsonObject spec = declaredSpec(r, *declared, id, result.notes);
        const QJsonObject adoptionFields = declared->ack.adoptionFields; // ACK's key → field, $id

        QMap<QString, QString> annotations;
        for (auto it = r.metadata.annotations.cbegin(); it != r.metadata.annotations.cend(); ++it) {
            if (!it.key().startsWith(T::convergePrefix()))
                annotations.insert(it.key(), it.value());
        }
        annotations.insert(T::ackRegion(), *region);
        const QString policy = r.metadata.annotations.value(Annotations::reconcilePolicy());
        if (policy == QLatin1String("detach-on-delete"))
            annotations.insert(T::ackDeletionPolicy(), QStringLiteral("retain"));
        else if (policy == QLatin1String("skip"))
            annotations.insert(T::ackReadOnly(), QStringLiteral("true"));
        const QString resourceId = r.metadata.annotations.value(Annotations::resourceId());
        if (!resourceId.isEmpty() || annotations.contains(T::ackAdoptionPolicy())) {
            if (!annotations.contains(T::ackAdoptionPolicy()))
                annotations.insert(T::ackAdoptionPolicy(), QStringLiteral("adopt"));
            QJsonObject fields;
            for (auto it = adoptionFields.begin(); it != adoptionFields.end(); ++it) {
                const QString from = it.value().toString();
                const QJsonValue value = from == QLatin1String("$id")
                                             ? QJsonValue(resourceId)
                                             : spec.value(declared->ack.ackField(from));
                if (!value.toString().isEmpty())
                    fields.insert(it.key(), value);
            }
            if (fields.size() == adoptionFields.size()) {
                annotations.insert(
                    T::ackAdoptionFields(),
                    QString::fromUtf8(QJsonDocument(fields).toJson(QJsonDocument::Compact)));
            } else {
                result.notes.append(
                    QStringLiteral("%1: %2 is not written: what ACK adopts it by (%3) is known "
                                   "once Converge has claimed or created it")
                        .arg(id, T::ackAdoptionFields(), adoptionFields.keys().join(u", ")));
            }
        }

        QJsonObject metadata{{QStringLiteral("name"), r.metadata.name}};
        if (!m_options.ns.isEmpty())
            metadata.insert(QStringLiteral("namespace"), m_options.ns);
        if (!r.metadata.labels.isEmpty())
            metadata.insert(QStringLiteral("labels"), jsonObjectOf(r.metadata.labels));
        metadata.insert(QStringLiteral("annotations"), jsonObjectOf(annotations));
        result.documents.append({{QStringLiteral("apiVersion"), apiVersion},
                                 {QStringLiteral("kind"), kind},
                                 {QStringLiteral("metadata"), metadata},
                                 {QStringLiteral("spec"), spec}});
    }
    if (!result.missing.isEmpty())
        result.documents.clear();
    return result;
}

} // namespace converge
