// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "apicaller.h"
#include "awsrestxml.h"
#include "awssession.h"
#include "credentials.h"
#include "httpresponse.h"
#include "redactor.h"
#include "sigv4signer.h"

#include <QHash>
#include <QUrl>

#include <functional>
#include <memory>

namespace converge {

class HttpClient;
struct HttpRequest;

/// One operation of a service of AWS's rest-xml protocol (S3) at a time: the request AwsRestXml
/// builds from the model, addressed path-style (`http://127.0.0.1:PORT/BUCKET`, for emulators
/// and custom endpoints) or virtual-hosted (`BUCKET.s3.REGION.amazonaws.com`, AWS's), with
/// Content-MD5 where the model requires a checksum and `x-amz-content-sha256`, signed with SigV4
/// and sent through the worker's HttpClient; the answer read back as JSON and errors mapped as
/// for every AWS service (AwsErrorMapper, whose XML reading takes S3's bare `<Error>`).
///
/// Used from one worker thread, like its HttpClient.
class AwsRestXmlClient final : public ApiCaller
{
public:
    struct Service
    {
        QString signingName; ///< s3
        AwsRestXml::Model model;
        /// Whether a leading URI label (`/{Bucket}`) goes into the host name; a name that is no
        /// DNS label (dots, upper case) goes into the path whatever this says, as botocore does.
        bool virtualHosted = false;
        /// AWS's own endpoint of a region, for a bucket S3 says is in another region than the
        /// account's (a 301 PermanentRedirect or a 400 with `x-amz-bucket-region`): the request
        /// is sent again there, signed for that region, and the bucket's region remembered.
        /// Empty for an endpoint the account sets, where such an answer is an error.
        std::function<QUrl(const QString &region)> regionalEndpoint;
    };

    /// `http` does not belong to the client unless given as `ownedHttp`.
    AwsRestXmlClient(Service service, HttpClient *http, QUrl endpoint, QString region,
                     const Credentials &credentials, std::function<bool()> isCancelled = {},
                     std::unique_ptr<HttpClient> ownedHttp = {});
    ~AwsRestXmlClient() override;
    Q_DISABLE_COPY_MOVE(AwsRestXmlClient)

    Outcome<Reply> call(const QString &operation, const QJsonObject &input) override;
    /// The blob payload `member` sent as `bytes`, as they are.
    Outcome<Reply> call(const QString &operation, QJsonObject input, const QString &member,
                        const QByteArray &bytes) override;
    QString region() const override { return m_session.region(); }

    /// The URL `request` goes to from `endpoint`, path-style or virtual-hosted.
    static QUrl urlFor(const QUrl &endpoint, const AwsRestXml::Request &request,
                       bool virtualHosted);

    /// Sees every attempt after signing (tests check what was sent).
    using RequestObserver = AwsSession::RequestObserver;
    void setRequestObserver(RequestObserver observer)
    {
        m_session.setRequestObserver(std::move(observer));
    }

private:
    /// `built` (AwsRestXml::request's) sent, redirected where S3 says, and its answer read.
    Outcome<Reply> sendBuilt(const QString &operation, const AwsRestXml::Request &built);

    HttpResponse send(const AwsRestXml::Request &built, const QString &region);

    Service m_service;
    AwsSession m_session;
    QHash<QString, QString> m_bucketRegions; ///< buckets found in another region than the account's
};

} // namespace converge
