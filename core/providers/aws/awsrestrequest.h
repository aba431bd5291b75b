// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "httprequest.h"

#include <QByteArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QPair>
#include <QString>
#include <QUrl>

namespace converge {

/// What AWS's two REST protocols (rest-xml: S3; rest-json: Lambda) share, as botocore's model
/// says it: an operation bound to an HTTP method and a URI template (`/{Bucket}?versioning`,
/// `/2015-03-31/functions/{FunctionName}/code`, greedy `{Key+}` labels), input members located
/// in the query string or headers, and output members read from headers. AwsRestXml and
/// AwsRestJson add their body each; AwsRestXmlClient and AwsRestJsonClient send the result.
struct AwsRestRequest
{
    QByteArray method;
    /// When the URI template starts with a label (`/{Bucket}…`): that label's value, which
    /// virtual-hosted addressing moves into the host, and the path after it ("" or
    /// "?…"-less "/key"); `path` is the whole path, for path-style addressing.
    QString leadingLabel;
    QString pathAfterLabel;
    QString path;  ///< decoded, starting with '/'
    QString query; ///< encoded, without '?': the template's and the querystring members'
    QList<QPair<QByteArray, QByteArray>> headers;
    QByteArray body;
    /// The input's payload member when it is a blob, whose bytes are the body (PutObject's
    /// Body); empty otherwise.
    QString blobPayload;
    bool checksumRequired = false; ///< the model says the service wants Content-MD5
    QString error;                 ///< non-empty when the input cannot be sent

    using Headers = QList<QPair<QByteArray, QByteArray>>;

    /// `endpoint` with `path` after the endpoint's own path (its trailing '/' cut) and the
    /// query, or no '?' at all without one: what both clients address.
    QUrl url(QUrl endpoint, const QString &path) const;
    /// The request to `url` with this method, body and headers and an AWS client request ID.
    HttpRequest http(const QUrl &url) const;

    /// `operation`'s method, path, query and headers from `input`, by the model's
    /// `operations` (`{method, requestUri, input?, output?, checksumRequired?}`) and `shapes`.
    /// Labels are filled decoded (the client's QUrl encodes the path once, as SigV4 signs it),
    /// so a label that is not greedy cannot hold a '/': such an input is refused.
    static AwsRestRequest bind(const QJsonObject &operations, const QJsonObject &shapes,
                               const QString &operation, const QJsonObject &input);

    /// The output members located in headers (`header`, a `headers` prefix map) and the status
    /// code (`statusCode`), added to `result` by the output shape `shape`.
    static void readLocated(const QJsonObject &shapes, const QJsonObject &shape,
                            const Headers &headers, int status, QJsonObject &result);

    /// A scalar's text (query strings, headers, XML), and text as the scalar `shape` says.
    static QString text(const QJsonValue &value);
    static QJsonValue scalar(const QJsonObject &shape, const QString &text);
    /// The member names of a structure shape, in the model's order (`order`, which the
    /// generator keeps: QJsonObject sorts its keys).
    static QStringList memberNames(const QJsonObject &shape);
};

} // namespace converge
