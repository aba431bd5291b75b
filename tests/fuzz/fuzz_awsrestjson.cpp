// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT

// The rest-json protocol's answers (Lambda): AwsRestJson::read with a model of every shape it
// reads (nested structures, lists, maps, a wire name, a structure payload, a string payload,
// headers and the status code), and the error mapper on the same bytes, as Lambda's error
// bodies reach it.

#include "awserrormapper.h"
#include "awsrestjson.h"
#include "httpresponse.h"
#include "redactor.h"

#include <QJsonDocument>

namespace {

// JSON written with ' for ": the model of a made-up service shaped as Lambda is.
const char fuzzRestJsonModel[] =
    "{'operations': {"
    "  'Get': {'method': 'GET', 'requestUri': '/f/{Name}', 'output': 'Out'},"
    "  'Text': {'method': 'GET', 'requestUri': '/t', 'output': 'TextOut'},"
    "  'Payload': {'method': 'GET', 'requestUri': '/p', 'output': 'PayloadOut'}},"
    " 'shapes': {"
    "  'Out': {'type': 'structure', 'members': {"
    "    'Etag': {'shape': 'S', 'location': 'header', 'locationName': 'ETag'},"
    "    'Status': {'shape': 'I', 'location': 'statusCode'},"
    "    'Items': {'shape': 'List'}, 'Tags': {'shape': 'Map'}, 'Wire': {'shape': 'S',"
    "    'locationName': 'wire'}, 'Count': {'shape': 'I'}, 'Inner': {'shape': 'Out'}}},"
    "  'TextOut': {'type': 'structure', 'payload': 'Body', 'members': {'Body': {'shape': 'S'}}},"
    "  'PayloadOut': {'type': 'structure', 'payload': 'Body',"
    "    'members': {'Body': {'shape': 'Out'}}},"
    "  'List': {'type': 'list', 'member': {'shape': 'Out'}},"
    "  'Map': {'type': 'map', 'key': {'shape': 'S'}, 'value': {'shape': 'List'}},"
    "  'S': {'type': 'string'}, 'I': {'type': 'integer'}}}";

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace converge;
    static const QJsonObject model =
        QJsonDocument::fromJson(QByteArray(fuzzRestJsonModel).replace('\'', '"')).object();
    static const AwsRestJson::Model restJson{model.value(QStringLiteral("operations")).toObject(),
                                             model.value(QStringLiteral("shapes")).toObject()};
    const QByteArray body(reinterpret_cast<const char *>(data), qsizetype(size));
    const QList<QPair<QByteArray, QByteArray>> headers{{"etag", body.left(16)}};
    for (const char *operation : {"Get", "Text", "Payload"})
        (void)AwsRestJson::read(restJson, QString::fromLatin1(operation), 200, headers, body);
    HttpResponse response;
    response.status = 400 + int(size % 110);
    response.body = body;
    response.headers.append({"x-amzn-ErrorType", body.left(24)});
    (void)AwsErrorMapper::errorFor(response, QStringLiteral("GetFunction"), Redactor());
    return 0;
}
