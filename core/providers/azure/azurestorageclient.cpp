// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "azurestorageclient.h"

#include "azureerrormapper.h"
#include "sastoken.h"
#include "sharedkeysigner.h"
#include "tokencommandcache.h"

#include <QUrlQuery>

namespace converge {

namespace {

const QByteArray metaPrefix = QByteArrayLiteral("x-ms-meta-");

bool needsInsecureHttp(const AzureAccount &account)
{
    for (const QUrl &url : {account.blobEndpoint, account.queueEndpoint, account.tableEndpoint}) {
        if (url.scheme().compare(QLatin1String("http"), Qt::CaseInsensitive) == 0 &&
            !HttpClient::isLoopbackHost(url.host()))
            return true;
    }
    return false;
}

} // namespace

AzureStorageClient::AzureStorageClient(AzureAccount account, HttpClient *http,
                                       std::function<bool()> isCancelled, Options options)
    : m_account(std::move(account))
    , m_http(http)
    , m_isCancelled(std::move(isCancelled))
    , m_options(std::move(options))
{
    for (const QString &secret : m_account.credentials.secrets())
        m_redactor.addSecret(secret);
    if (m_account.allowInsecureHttp && needsInsecureHttp(m_account)) {
        HttpClient::Options httpOptions = http ? http->options() : HttpClient::Options{};
        httpOptions.allowInsecureHttp = true;
        m_ownHttp = std::make_unique<HttpClient>(httpOptions);
        m_http = m_ownHttp.get();
    }
    if (const auto *sas = m_account.credentials.azureSasValue())
        m_sas = SasToken::parse(sas->token);
    if (const auto *bearer = m_account.credentials.azureBearerValue()) {
        m_bearerToken = bearer->token;
        // Bearer tokens need no string to sign; x-ms-date as the signers set it.
        m_blobQueueSigner = [this](HttpRequest &r) {
            r.setHeader(QByteArrayLiteral("x-ms-date"),
                        SharedKeySigner::httpDate(QDateTime::currentDateTimeUtc()));
            r.setHeader(QByteArrayLiteral("Authorization"),
                        QByteArrayLiteral("Bearer ") + m_bearerToken.toUtf8());
        };
        m_tableSigner = m_blobQueueSigner;
    }
    if (const auto *key = m_account.credentials.azureSharedKeyValue()) {
        m_blobQueueSigner =
            SharedKeySigner(key->account, key->key, SharedKeySigner::Scheme::BlobQueue).signer();
        m_tableSigner =
            SharedKeySigner(key->account, key->key, SharedKeySigner::Scheme::Table).signer();
    }
}

AzureStorageClient::~AzureStorageClient() = default;

QUrl AzureStorageClient::url(Service service, const QString &path, const Query &query) const
{
    QUrl url = m_account.endpoint(service);
    QString base = url.path();
    while (base.endsWith(QLatin1Char('/')))
        base.chop(1);
    url.setPath(base + QLatin1Char('/') + path, QUrl::DecodedMode);
    if (!query.isEmpty()) {
        QUrlQuery q;
        for (const auto &[name, value] : query) {
            // QUrlQuery leaves '+' alone, which servers read as a space.
            QString encoded = QString::fromLatin1(QUrl::toPercentEncoding(value));
            q.addQueryItem(name, encoded);
        }
        url.setQuery(q);
    }
    return url;
}

QString AzureStorageClient::resourceId(const QUrl &url)
{
    return url.toString(QUrl::RemoveQuery | QUrl::RemoveFragment | QUrl::RemoveUserInfo);
}

HttpRequest AzureStorageClient::request(const QByteArray &method, const QUrl &url)
{
    HttpRequest r;
    r.method = method;
    r.url = url;
    r.clientRequestId = HttpRequest::ClientRequestId::Azure;
    r.setHeader(QByteArrayLiteral("x-ms-version"), SharedKeySigner::apiVersion());
    return r;
}

HttpResponse AzureStorageClient::send(Service service, const HttpRequest &request)
{
    if (m_account.tokenCommand && m_account.tokens) {
        // Cheap while the token is fresh; runs the command again when it is about to expire.
        const Outcome<AccessToken> token = m_account.tokens->token(*m_account.tokenCommand);
        if (!token) {
            HttpResponse refused;
            refused.clientError = token.error();
            return refused;
        }
        if (token.value().accessToken != m_bearerToken) {
            m_bearerToken = token.value().accessToken;
            m_redactor.addSecret(m_bearerToken);
        }
    }
    HttpRequest prepared = request;
    if (m_sas)
        prepared.url = m_sas->appendTo(prepared.url);
    const Signer &base = service == Service::Table ? m_tableSigner : m_blobQueueSigner;
    const RequestObserver &observer = m_options.observer;
    Signer sign;
    if (base || observer) {
        sign = [&base, &observer](HttpRequest &r) {
            if (base)
                base(r);
            if (observer)
                observer(r);
        };
    }
    if (!m_http) {
        HttpResponse refused;
        refused.clientError =
            invalid(QStringLiteral("NoHttpClient"), QStringLiteral("no HTTP client was given"));
        refused.clientError->category = BackendError::Category::Terminal;
        return refused;
    }
    return m_http->send(prepared, sign, m_isCancelled);
}

Outcome<HttpResponse> AzureStorageClient::call(Service service, const HttpRequest &request)
{
    HttpResponse response = send(service, request);
    if (response.isSuccess())
        return response;
    return error(response);
}

BackendError AzureStorageClient::error(const HttpResponse &response) const
{
    BackendError e = AzureErrorMapper::map(response);
    e.message = m_redactor.redact(e.message);
    return e;
}

BackendError AzureStorageClient::invalid(const QString &code, const QString &message)
{
    return BackendError::make(BackendError::Category::Invalid, code, message);
}

void AzureStorageClient::setMetadataHeaders(HttpRequest &request, const QJsonObject &metadata)
{
    for (auto it = metadata.constBegin(); it != metadata.constEnd(); ++it)
        request.setHeader(metaPrefix + it.key().toLatin1(), it.value().toString().toLatin1());
}

QJsonObject AzureStorageClient::metadataFromHeaders(const HttpResponse::Headers &headers)
{
    QJsonObject metadata;
    for (const auto &[name, value] : headers) {
        if (name.size() > metaPrefix.size() && name.toLower().startsWith(metaPrefix))
            metadata.insert(QString::fromLatin1(name.mid(metaPrefix.size())),
                            QString::fromLatin1(value));
    }
    return metadata;
}

QJsonObject AzureStorageClient::alignMetadataNames(const QJsonObject &observed,
                                                   const QJsonObject &desired)
{
    QJsonObject aligned;
    for (auto it = observed.constBegin(); it != observed.constEnd(); ++it) {
        QString name = it.key();
        for (const QString &wanted : desired.keys()) {
            if (wanted.compare(name, Qt::CaseInsensitive) == 0) {
                name = wanted;
                break;
            }
        }
        aligned.insert(name, it.value());
    }
    return aligned;
}

} // namespace converge
