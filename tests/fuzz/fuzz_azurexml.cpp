// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT

// Azure's XML answers: the List Containers / Blobs / Queues parser and the error mapper (XML
// and the Table service's JSON error bodies).

#include "azureerrormapper.h"
#include "azurelistparser.h"
#include "httpresponse.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace converge;
    const QByteArray body(reinterpret_cast<const char *>(data), qsizetype(size));
    for (const char *item : {"Container", "Blob", "Queue"}) {
        AzureListParser::Page page;
        QString error;
        (void)AzureListParser::parse(body, QString::fromLatin1(item), &page, &error);
    }
    (void)AzureErrorMapper::parseBody(body);
    HttpResponse response;
    response.status = 400 + int(size % 110);
    response.body = body;
    response.headers.append(
        {QByteArrayLiteral("Content-Type"),
         size % 2 ? QByteArrayLiteral("application/xml") : QByteArrayLiteral("application/json")});
    (void)AzureErrorMapper::map(response);
    return 0;
}
