// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT

// DynamoDB's JSON answers: the error mapper (with its CRC-32 check) and what the DynamoDBTable
// hook reads from a TableDescription.

#include "awserrormapper.h"
#include "dynamodbtablesteps.h"
#include "httpresponse.h"
#include "redactor.h"

#include <QJsonDocument>
#include <QJsonObject>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace converge;
    const QByteArray body(reinterpret_cast<const char *>(data), qsizetype(size));
    const Redactor redactor;
    for (const int status : {200, 400, 500}) {
        HttpResponse response;
        response.status = status;
        response.body = body;
        // A CRC header that matches only by chance: both branches of the check run.
        response.headers.append({QByteArrayLiteral("x-amz-crc32"), QByteArray::number(size)});
        (void)AwsErrorMapper::errorFor(response, QStringLiteral("DescribeTable"), redactor);
    }

    const QJsonObject answer = QJsonDocument::fromJson(body).object();
    const QJsonObject table = answer.value(QStringLiteral("Table")).toObject();
    const QJsonObject desired = answer.value(QStringLiteral("desired")).toObject();
    const QJsonObject observed = DynamoDbTableSteps::observedSpec(table, desired);
    (void)DynamoDbTableSteps::indexProgress(table);
    (void)DynamoDbTableSteps::nextStep(desired, observed, QStringLiteral("t"));
    return 0;
}
