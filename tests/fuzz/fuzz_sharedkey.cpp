// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT

// The Shared Key canonicaliser (all three schemes) on arbitrary requests.

#include "fuzzrequest.h"
#include "sharedkeysigner.h"

#include <QDateTime>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace converge;
    HttpRequest request = fuzz::requestFrom(data, size);
    // Azurite's published key: a valid base64 key, so that signing runs to the end.
    static const QString key = QStringLiteral(
        "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==");
    for (const auto scheme : {SharedKeySigner::Scheme::BlobQueue, SharedKeySigner::Scheme::Table,
                              SharedKeySigner::Scheme::TableLite}) {
        const SharedKeySigner signer(QStringLiteral("devstoreaccount1"), key, scheme);
        (void)signer.canonicalResource(request.url);
        (void)signer.signature(signer.stringToSign(request));
    }
    // The key comes from configuration too: an arbitrary one must be refused, not crash.
    const SharedKeySigner arbitrary(QStringLiteral("acct"), QString::fromUtf8(request.method),
                                    SharedKeySigner::Scheme::BlobQueue);
    if (arbitrary.isValid())
        arbitrary.sign(request, QDateTime::fromSecsSinceEpoch(1796000000, Qt::UTC));
    return 0;
}
