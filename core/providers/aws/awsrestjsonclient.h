// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "apicaller.h"
#include "awsrestjson.h"
#include "awssession.h"
#include "credentials.h"

#include <QUrl>

#include <functional>
#include <memory>

namespace converge {

class HttpClient;

/// One operation of a service of AWS's rest-json protocol (Lambda) at a time: the request
/// AwsRestJson builds from the model, sent to the account's endpoint, signed with SigV4 through
/// AwsSession and the worker's HttpClient; the answer read back as JSON and errors mapped as for
/// every AWS service (AwsErrorMapper: the code from `x-amzn-ErrorType` or the body's `__type`,
/// `code` or `Type`).
///
/// Used from one worker thread, like its HttpClient.
class AwsRestJsonClient final : public ApiCaller
{
public:
    struct Service
    {
        QString signingName; ///< lambda
        AwsRestJson::Model model;
    };

    /// `http` does not belong to the client unless given as `ownedHttp`.
    AwsRestJsonClient(Service service, HttpClient *http, QUrl endpoint, QString region,
                      const Credentials &credentials, std::function<bool()> isCancelled = {},
                      std::unique_ptr<HttpClient> ownedHttp = {});
    ~AwsRestJsonClient() override;
    Q_DISABLE_COPY_MOVE(AwsRestJsonClient)

    Outcome<Reply> call(const QString &operation, const QJsonObject &input) override;
    QString region() const override { return m_session.region(); }

    /// The URL `request` goes to from `endpoint` (its path, if any, kept in front).
    static QUrl urlFor(const QUrl &endpoint, const AwsRestJson::Request &request);

    using RequestObserver = AwsSession::RequestObserver;
    void setRequestObserver(RequestObserver observer)
    {
        m_session.setRequestObserver(std::move(observer));
    }

private:
    Service m_service;
    AwsSession m_session;
};

} // namespace converge
