// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "kind.h"

namespace converge {

/// S3Object (aws.converge.dev/v1), owned by an S3Bucket: an object as a Blob is — its key,
/// exactly one of inline `content` or a local `contentFile`, its Content-Type and metadata —
/// judged by the MD5 S3 answers as its ETag. Written by hand (S3ObjectManager): an object's
/// bytes are no field of a model's structure.
class S3ObjectKind final
{
public:
    static QString name() { return QStringLiteral("S3Object"); }
    static QString bucketKind() { return QStringLiteral("S3Bucket"); }
    static Kind kind();
};

} // namespace converge
