// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "apicaller.h"
#include "awsjsonservice.h"
#include "awssession.h"
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

/// One operation of a service of AWS's JSON protocol (1.0 or 1.1) at a time: builds the request
/// (POST /, X-Amz-Target <prefix>.<Operation>, application/x-amz-json-<version>), signs it with
/// SigV4 for the service, sends it through the worker's HttpClient, checks the body's CRC-32
/// where the service sends one (DynamoDB) and maps errors (AwsErrorMapper).
///
/// Used from one worker thread, like its HttpClient.
class AwsJsonClient final : public ApiCaller
{
public:
    /// `http` does not belong to the client unless given as `ownedHttp` (an account that allows
    /// plain http to a remote host needs a client of its own). `credentials` must be Aws.
    AwsJsonClient(AwsJsonService service, HttpClient *http, QUrl endpoint, QString region,
                  const Credentials &credentials, std::function<bool()> isCancelled = {},
                  std::unique_ptr<HttpClient> ownedHttp = {});
    ~AwsJsonClient() override;
    Q_DISABLE_COPY_MOVE(AwsJsonClient)

    /// Sees every attempt after signing (tests check which key signed it).
    using RequestObserver = AwsSession::RequestObserver;
    void setRequestObserver(RequestObserver observer)
    {
        m_session.setRequestObserver(std::move(observer));
    }

    /// Sends `operation` (e.g. "DescribeTable") with `request` as its body.
    Outcome<Reply> call(const QString &operation, const QJsonObject &request) override;

    const QUrl &endpoint() const { return m_session.endpoint(); }
    QString region() const override { return m_session.region(); }

    const AwsJsonService &service() const { return m_service; }

private:
    AwsJsonService m_service;
    AwsSession m_session;
};

} // namespace converge
