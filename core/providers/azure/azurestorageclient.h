// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "azureaccount.h"
#include "httpclient.h"
#include "outcome.h"
#include "redactor.h"
#include "sastoken.h"

#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QString>

#include <functional>
#include <memory>
#include <optional>

namespace converge {

/// The request plumbing the Azure Managers share: URLs under an account's endpoints, the
/// x-ms-version and client request id, Shared Key signing (Blob/Queue or Table form), the
/// account SAS or a bearer token (asked of the account's token cache before each send), sending
/// through the worker's HttpClient with its cancellation hook, and errors mapped by
/// AzureErrorMapper with every secret redacted from their messages.
///
/// Lives on the worker thread that made it, like the HttpClient it uses.
class AzureStorageClient final
{
public:
    using Service = AzureAccount::Service;
    using Query = QList<QPair<QString, QString>>;
    /// Sees every attempt as sent (signed, SAS appended); for tests that count requests.
    using RequestObserver = std::function<void(const HttpRequest &request)>;

    struct Options
    {
        int listPageSize = 5000;
        QString listPrefix; ///< only names starting with this are listed
        RequestObserver observer;
    };

    /// `http` does not own and must outlive the client, unless the account allows insecure
    /// http: then the client makes its own HttpClient (on this thread) with that option.
    AzureStorageClient(AzureAccount account, HttpClient *http, std::function<bool()> isCancelled,
                       Options options);
    ~AzureStorageClient();
    Q_DISABLE_COPY_MOVE(AzureStorageClient)

    const AzureAccount &account() const { return m_account; }
    const Options &options() const { return m_options; }

    /// `path` (decoded; '/' separates segments) under the service's endpoint, with `query`.
    QUrl url(Service service, const QString &path, const Query &query = {}) const;
    /// The URL without query, as the resource ID.
    static QString resourceId(const QUrl &url);

    /// A request with x-ms-version and an Azure client request id.
    static HttpRequest request(const QByteArray &method, const QUrl &url);

    /// Sends (the SAS appended, or signed with the account key in the service's form) and
    /// returns the raw answer.
    HttpResponse send(Service service, const HttpRequest &request);
    /// Sends and returns the answer when it is a success, else the mapped, redacted error.
    Outcome<HttpResponse> call(Service service, const HttpRequest &request);

    /// The mapped error of a failed answer, messages redacted.
    BackendError error(const HttpResponse &response) const;
    /// An error of our own (no request made), e.g. an invalid name.
    static BackendError invalid(const QString &code, const QString &message);
    QString redact(const QString &text) const { return m_redactor.redact(text); }

    /// x-ms-meta-<name>: <value> for each entry.
    static void setMetadataHeaders(HttpRequest &request, const QJsonObject &metadata);
    static QJsonObject metadataFromHeaders(const HttpResponse::Headers &headers);
    /// `observed` with each name spelled as in `desired` where they match case-insensitively
    /// (Azure metadata names are case-insensitive; some services lower-case them).
    static QJsonObject alignMetadataNames(const QJsonObject &observed, const QJsonObject &desired);

private:
    AzureAccount m_account;
    HttpClient *m_http; // not owned, unless it is m_ownHttp
    std::unique_ptr<HttpClient> m_ownHttp;
    std::function<bool()> m_isCancelled;
    Options m_options;
    Redactor m_redactor;
    std::optional<SasToken> m_sas;
    Signer m_blobQueueSigner;
    Signer m_tableSigner;
    QString m_bearerToken; ///< the token of this send(), for a bearer account
};

} // namespace converge
