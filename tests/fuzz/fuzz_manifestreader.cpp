// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT

// The manifest reader over the real kinds, as YAML and as JSON.

#include "awskinds.h"
#include "azurekinds.h"
#include "kindregistry.h"
#include "manifestreader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace converge;
    static const KindRegistry registry = [] {
        KindRegistry r;
        AzureKinds::registerAll(r);
        AwsKinds::registerKinds(r);
        return r;
    }();
    const QByteArray text(reinterpret_cast<const char *>(data), qsizetype(size));
    const ManifestReader reader(registry);
    for (const QString &name : {QStringLiteral("f.yaml"), QStringLiteral("f.json")}) {
        const ManifestReader::Result result = reader.read(text, name);
        for (const ManifestError &error : result.errors)
            (void)error.toString();
    }
    return 0;
}
