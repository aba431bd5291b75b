// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "s3objectkind.h"

#include "awskinds.h"

#include <QJsonObject>

namespace converge {

Kind S3ObjectKind::kind()
{
    using F = FieldSchema;
    Kind kind;
    kind.group = AwsKinds::group();
    kind.version = AwsKinds::version();
    kind.name = name();
    kind.ownerKind = bucketKind();
    kind.service = QStringLiteral("S3");
    kind.backendNameField = QStringLiteral("key");
    kind.folderDelimiter = QStringLiteral("/");
    kind.description = QStringLiteral(
        "An object in an S3 bucket: inline text, a local file or a copy of another object, with "
        "its Content-Type, "
        "metadata and tags. Drift is judged by the ETag S3 answers: the content's MD5.");
    kind.claimRefusal = QStringLiteral(
        "an object's bytes are only in the bucket: declare it with content, contentFile or "
        "copySource and apply that");
    F metadataValue = F::string(QStringLiteral("value"));
    metadataValue.setLength(0, 2048);
    F metadata = F::map(QStringLiteral("metadata"), metadataValue,
                        QStringLiteral("User metadata, sent as x-amz-meta-NAME headers; S3 keeps "
                                       "names in lower case and at most 2 KB in all."));
    metadata.setPattern(QStringLiteral("[a-z0-9][a-z0-9-]*"),
                        QStringLiteral("lower-case letters, digits and '-'"));
    // AWS's tag characters: letters, digits, spaces and _ . : / = + - @.
    const QString tagPattern = QStringLiteral("[\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]*");
    const QString tagHint = QStringLiteral("letters, digits, spaces and _ . : / = + - @");
    F tagValue = F::string(QStringLiteral("value"));
    tagValue.setLength(0, 256).setPattern(tagPattern, tagHint);
    F tags = F::map(QStringLiteral("tags"), tagValue,
                    QStringLiteral("The object's tags (at most 10; keys up to 128 characters, "
                                   "values up to 256). When given, the set is managed whole; an "
                                   "empty map removes them."));
    tags.setLength(1, 128).setPattern(tagPattern, tagHint);
    tags.setCheck([](const QJsonValue &v) {
        return v.toObject().size() > 10 ? QStringLiteral("S3 keeps at most 10 tags on an object")
                                        : QString();
    });
    F spec = F::object(
        QStringLiteral("spec"),
        {F::object(QStringLiteral("owner"),
                   {F::string(QStringLiteral("name"),
                              QStringLiteral("The S3Bucket of the workspace that holds it."))
                        .setRequired()
                        .setLength(1, 253)})
             .setRequired()
             .setImmutable(),
         F::string(QStringLiteral("key"),
                   QStringLiteral("The object's key in its bucket (may contain '/', which the "
                                  "window shows as folders); defaults to metadata.name. Cannot "
                                  "change after creation."))
             .setImmutable()
             .setLength(1, 1024)
             .setPattern(QStringLiteral("[^\\x{0000}-\\x{001f}\\x{007f}]+"),
                         QStringLiteral("no control characters")),
         F::string(QStringLiteral("content"),
                   QStringLiteral("The object's content as UTF-8 text.")),
         F::string(QStringLiteral("contentFile"),
                   QStringLiteral("A local file whose bytes are the object's content. Relative "
                                  "paths are resolved against the working directory of the "
                                  "Converge process (the window, the CLI), not the manifest's "
                                  "folder. Read on every reconcile to compare its MD5."))
             .setLength(1, 4096),
         F::string(QStringLiteral("copySource"),
                   QStringLiteral("An object to copy, as s3://BUCKET/KEY: S3 copies it within "
                                  "AWS (CopyObject, up to 5 GiB), with this spec's contentType, "
                                  "metadata and tags. Drift is judged against the source's ETag: "
                                  "a changed source is copied again."))
             .setPattern(QStringLiteral("s3://[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]/.+"),
                         QStringLiteral("s3://BUCKET/KEY")),
         F::string(QStringLiteral("contentType"), QStringLiteral("The object's Content-Type."))
             .setDefault(QStringLiteral("application/octet-stream"))
             .setLength(1, 256),
         metadata, tags});
    spec.setCheck([](const QJsonValue &v) {
        const QJsonObject o = v.toObject();
        int count = 0;
        for (const char *name : {"content", "contentFile", "copySource"})
            count += o.contains(QLatin1String(name)) ? 1 : 0;
        return count == 1 ? QString()
                          : QStringLiteral("exactly one of content, contentFile, copySource must "
                                           "be given");
    });
    kind.spec = spec;
    return kind;
}

} // namespace converge
