// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "credentials.h"
#include "outcome.h"
#include "redactor.h"
#include "sigv4signer.h"

#include <QJsonObject>
#include <QString>
#include <QUrl>

#include <functional>
#include <memory>

namespace converge {

class HttpClient;
struct HttpRequest;

/// One DynamoDB JSON 1.0 operation at a time: builds the request (POST /, X-Amz-Target
/// DynamoDB_20120810.<Operation>, application/x-amz-json-1.0), signs it with SigV4, sends it
/// through the worker's HttpClient, checks the body's CRC-32 and maps errors (AwsErrorMapper).
///
/// Used from one worker thread, like its HttpClient.
class DynamoDbClient final
{
public:
    /// A successful answer: the JSON body (empty for operations that answer nothing) and the
    /// x-amzn-RequestId.
    struct Reply
    {
        QJsonObject body;
        QString requestId;
    };

    /// `http` does not belong to the client unless given as `ownedHttp` (an account that allows
    /// plain http to a remote host needs a client of its own). `credentials` must be Aws.
    DynamoDbClient(HttpClient *http, QUrl endpoint, QString region, const Credentials &credentials,
                   std::function<bool()> isCancelled = {},
                   std::unique_ptr<HttpClient> ownedHttp = {});
    ~DynamoDbClient();
    Q_DISABLE_COPY_MOVE(DynamoDbClient)

    /// Sees every attempt after signing (tests check which key signed it).
    using RequestObserver = std::function<void(const HttpRequest &request)>;
    void setRequestObserver(RequestObserver observer) { m_observer = std::move(observer); }

    /// Sends `operation` (e.g. "DescribeTable") with `request` as its body.
    Outcome<Reply> call(const QString &operation, const QJsonObject &request);

    const QUrl &endpoint() const { return m_endpoint; }
    const QString &region() const { return m_region; }
    const Redactor &redactor() const { return m_redactor; }

    /// https://dynamodb.<region>.amazonaws.com (.com.cn for the China regions).
    static QUrl defaultEndpoint(const QString &region);
    /// "DynamoDB_20120810.<operation>".
    static QByteArray target(const QString &operation);

private:
    std::unique_ptr<HttpClient> m_ownedHttp;
    HttpClient *m_http;
    QUrl m_endpoint;
    QString m_region;
    SigV4Signer m_signer;
    Redactor m_redactor;
    std::function<bool()> m_isCancelled;
    RequestObserver m_observer;
};

} // namespace converge
