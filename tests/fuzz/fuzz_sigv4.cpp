// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT

// The SigV4 canonical request and string to sign on arbitrary requests.

#include "fuzzrequest.h"
#include "sigv4signer.h"

#include <QDateTime>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace converge;
    HttpRequest request = fuzz::requestFrom(data, size);
    const SigV4Signer signer(
        QStringLiteral("AKIDEXAMPLE"), QStringLiteral("wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"),
        QStringLiteral("us-east-1"), QStringLiteral("dynamodb"), QStringLiteral("session"));
    // With the request's own X-Amz-Date (possibly garbage), then with a fixed time.
    (void)signer.compute(request, QDateTime::fromSecsSinceEpoch(1796000000, Qt::UTC));
    signer.sign(request, QDateTime::fromSecsSinceEpoch(1796000000, Qt::UTC));
    return 0;
}
