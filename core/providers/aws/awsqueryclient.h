// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "apicaller.h"
#include "awssession.h"
#include "credentials.h"
#include "redactor.h"
#include "sigv4signer.h"

#include <QStringList>
#include <QUrl>

#include <functional>
#include <memory>

namespace converge {

class HttpClient;
struct HttpRequest;

/// One operation of a service of AWS's query protocol (SNS, IAM) at a time: the input as a form
/// (POST /, Action and Version, application/x-www-form-urlencoded), signed with SigV4 for the
/// service, sent through the worker's HttpClient; the XML answer read back as JSON
/// (AwsQueryXml) and errors mapped as for every AWS service (AwsErrorMapper).
///
/// Used from one worker thread, like its HttpClient.
class AwsQueryClient final : public ApiCaller
{
public:
    struct Service
    {
        QString signingName;    ///< e.g. sns, iam
        QString apiVersion;     ///< sent as Version, e.g. 2010-03-31
        QStringList mapMembers; ///< input members that are maps (Attributes)
    };

    /// `http` does not belong to the client unless given as `ownedHttp`.
    AwsQueryClient(Service service, HttpClient *http, QUrl endpoint, QString region,
                   const Credentials &credentials, std::function<bool()> isCancelled = {},
                   std::unique_ptr<HttpClient> ownedHttp = {});
    ~AwsQueryClient() override;
    Q_DISABLE_COPY_MOVE(AwsQueryClient)

    Outcome<Reply> call(const QString &operation, const QJsonObject &input) override;

    /// Sees every attempt after signing (tests count them).
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
