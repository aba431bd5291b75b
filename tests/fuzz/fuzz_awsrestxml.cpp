// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT

// The rest-xml protocol's answers (S3): AwsRestXml::read with a model of every shape it reads
// (flattened and named lists, maps, nested structures, typed scalars, headers, a string
// payload), and the error mapper on the same bytes, as S3's <Error> bodies reach it.

#include "awserrormapper.h"
#include "awsrestxml.h"
#include "httpresponse.h"
#include "redactor.h"

#include <QJsonDocument>

namespace {

// JSON written with ' for ": the model of a made-up service shaped as S3 is.
const char fuzzRestXmlModel[] =
    "{'operations': {"
    "  'Get': {'method': 'GET', 'requestUri': '/{Bucket}?x', 'output': 'Out'},"
    "  'Policy': {'method': 'GET', 'requestUri': '/{Bucket}?policy', 'output': 'PolicyOut'},"
    "  'Payload': {'method': 'GET', 'requestUri': '/{Bucket}?p', 'output': 'PayloadOut'}},"
    " 'shapes': {"
    "  'Out': {'type': 'structure', 'members': {"
    "    'Region': {'shape': 'S', 'location': 'header', 'locationName': 'x-amz-bucket-region'},"
    "    'Meta': {'shape': 'Map', 'location': 'headers', 'locationName': 'x-amz-meta-'},"
    "    'Rules': {'shape': 'Rules', 'locationName': 'Rule'},"
    "    'TagSet': {'shape': 'Tags'}, 'Labels': {'shape': 'Map'},"
    "    'Count': {'shape': 'I'}, 'On': {'shape': 'B'}, 'Ratio': {'shape': 'D'},"
    "    'Inner': {'shape': 'Out'}}},"
    "  'PolicyOut': {'type': 'structure', 'payload': 'Policy',"
    "    'members': {'Policy': {'shape': 'S'}}},"
    "  'PayloadOut': {'type': 'structure', 'payload': 'Body',"
    "    'members': {'Body': {'shape': 'Out'}}},"
    "  'Rules': {'type': 'list', 'member': {'shape': 'Out'}, 'flattened': true},"
    "  'Tags': {'type': 'list', 'member': {'shape': 'Tag', 'locationName': 'Tag'}},"
    "  'Tag': {'type': 'structure', 'members': {'Key': {'shape': 'S'}, 'Value': {'shape': 'S'}}},"
    "  'Map': {'type': 'map', 'key': {'shape': 'S'}, 'value': {'shape': 'S'}},"
    "  'S': {'type': 'string'}, 'I': {'type': 'integer'}, 'B': {'type': 'boolean'},"
    "  'D': {'type': 'double'}}}";

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace converge;
    static const QJsonObject model =
        QJsonDocument::fromJson(QByteArray(fuzzRestXmlModel).replace('\'', '"')).object();
    static const AwsRestXml::Model restXml{model.value(QStringLiteral("operations")).toObject(),
                                           model.value(QStringLiteral("shapes")).toObject()};
    const QByteArray body(reinterpret_cast<const char *>(data), qsizetype(size));
    const QList<QPair<QByteArray, QByteArray>> headers{{"x-amz-bucket-region", body.left(16)},
                                                       {"x-amz-meta-a", body.left(8)}};
    for (const char *operation : {"Get", "Policy", "Payload"})
        (void)AwsRestXml::read(restXml, QString::fromLatin1(operation), headers, body);
    HttpResponse response;
    response.status = 400 + int(size % 110);
    response.body = body;
    (void)AwsErrorMapper::errorFor(response, QStringLiteral("GetBucketTagging"), Redactor());
    return 0;
}
