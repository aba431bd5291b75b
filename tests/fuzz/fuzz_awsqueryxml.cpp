// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT

// The query protocol's XML answers (SNS, IAM) and the XML error bodies every AWS service may
// send: AwsQueryXml::read and the error mapper.

#include "awserrormapper.h"
#include "awsqueryxml.h"
#include "httpresponse.h"
#include "redactor.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace converge;
    const QByteArray body(reinterpret_cast<const char *>(data), qsizetype(size));
    (void)AwsQueryXml::read(body);
    HttpResponse response;
    response.status = 400 + int(size % 110);
    response.body = body;
    (void)AwsErrorMapper::errorFor(response, QStringLiteral("GetTopicAttributes"), Redactor());
    return 0;
}
