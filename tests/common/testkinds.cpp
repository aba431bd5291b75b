// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "testkinds.h"

#include "kindregistry.h"

#include <QJsonObject>

namespace converge::test {

QString testApiVersion()
{
    return QStringLiteral("test.converge.dev/v1");
}

Kind widgetKind()
{
    using F = FieldSchema;
    Kind kind;
    kind.group = QStringLiteral("test.converge.dev");
    kind.version = QStringLiteral("v1");
    kind.name = QStringLiteral("Widget");
    kind.ownerKind = QStringLiteral("Gadget");
    kind.backendNameField = QStringLiteral("azureName");
    kind.description = QStringLiteral("A test kind with every field type and rule");
    kind.nameMaxLength = 63;

    F metadataValue = F::string(QStringLiteral("value"));
    metadataValue.setLength(-1, 256);
    F metadata = F::map(QStringLiteral("metadata"), metadataValue);
    metadata.setPattern(QStringLiteral("[A-Za-z0-9._-]+"),
                        QStringLiteral("letters, digits, '.', '_' and '-'"));

    F tags = F::list(QStringLiteral("tags"),
                     F::object(QStringLiteral("tag"),
                               {F::string(QStringLiteral("key")).setRequired(),
                                F::string(QStringLiteral("value")),
                                F::boolean(QStringLiteral("propagate")).setDefault(true)}));
    tags.maxItems = 3;

    F source = F::object(QStringLiteral("source"),
                         {F::string(QStringLiteral("a")), F::string(QStringLiteral("b")),
                          F::string(QStringLiteral("mode")).setDefault(QStringLiteral("copy"))});
    source.setCheck([](const QJsonValue &value) {
        const QJsonObject o = value.toObject();
        return o.contains(QStringLiteral("a")) == o.contains(QStringLiteral("b"))
                   ? QStringLiteral("exactly one of a, b must be given")
                   : QString();
    });

    kind.spec = F::object(
        QStringLiteral("spec"),
        {F::object(QStringLiteral("owner"),
                   {F::string(QStringLiteral("name")).setRequired().setLength(1, 253)})
             .setRequired()
             .setImmutable(),
         F::string(QStringLiteral("azureName"))
             .setImmutable()
             .setPattern(QStringLiteral("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"),
                         QStringLiteral("lower-case letters, digits and '-', starting and ending "
                                        "with a letter or digit"))
             .setLength(3, 24),
         F::enumeration(
             QStringLiteral("publicAccess"),
             {QStringLiteral("None"), QStringLiteral("Blob"), QStringLiteral("Container")})
             .setDefault(QStringLiteral("None")),
         F::integer(QStringLiteral("replicas")).setRange(1, 10).setDefault(1),
         F::boolean(QStringLiteral("enabled")), metadata, tags,
         F::string(QStringLiteral("etag")).setCompared(false),
         F::string(QStringLiteral("accountKey")).setSecret(), source,
         // A reference to another resource of the workspace, or the ID it stands for.
         F::object(QStringLiteral("peerRef"), {F::string(QStringLiteral("name")).setRequired()}),
         F::string(QStringLiteral("peerId"))});
    KindReference peer;
    peer.field = QStringLiteral("peerRef");
    peer.kind = QStringLiteral("Gadget");
    peer.idField = QStringLiteral("peerId");
    kind.references = {peer};
    return kind;
}

Kind gadgetKind()
{
    Kind kind;
    kind.group = QStringLiteral("test.converge.dev");
    kind.version = QStringLiteral("v1");
    kind.name = QStringLiteral("Gadget");
    kind.description = QStringLiteral("A test root kind");
    // A pattern without a hint: errors quote the pattern itself.
    kind.spec =
        FieldSchema::object(QStringLiteral("spec"), {FieldSchema::string(QStringLiteral("location"))
                                                         .setRequired()
                                                         .setPattern(QStringLiteral("[a-z]+"))});
    return kind;
}

void registerTestKinds(KindRegistry &registry)
{
    registry.add(gadgetKind());
    registry.add(widgetKind());
}

} // namespace converge::test
