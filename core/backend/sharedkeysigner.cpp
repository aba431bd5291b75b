// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "sharedkeysigner.h"

#include <QCryptographicHash>
#include <QLocale>
#include <QMap>
#include <QMessageAuthenticationCode>
#include <QTimeZone>

#include <algorithm>

namespace converge {

namespace {

/// The 11 standard headers of the Blob/Queue string-to-sign after the verb, in order.
/// Content-Length is handled separately (it comes from the body).
constexpr const char *standardHeaders[] = {
    "Content-Encoding",
    "Content-Language",
    nullptr /* Content-Length */,
    "Content-MD5",
    "Content-Type",
    "Date",
    "If-Modified-Since",
    "If-Match",
    "If-None-Match",
    "If-Unmodified-Since",
    "Range",
};

QByteArray decodedPercent(const QByteArray &text)
{
    return QByteArray::fromPercentEncoding(text);
}

} // namespace

SharedKeySigner::SharedKeySigner(QString account, const QString &key, Scheme scheme)
    : m_account(std::move(account))
    , m_scheme(scheme)
{
    const auto decoded = QByteArray::fromBase64Encoding(key.trimmed().toLatin1(),
                                                        QByteArray::AbortOnBase64DecodingErrors);
    if (m_account.isEmpty())
        m_error = QStringLiteral("the storage account name is empty");
    else if (!decoded || decoded.decoded.isEmpty())
        m_error = QStringLiteral("the account key of %1 is not valid base64").arg(m_account);
    else
        m_key = decoded.decoded;
}

QByteArray SharedKeySigner::apiVersion()
{
    return QByteArrayLiteral("2021-12-02");
}

QByteArray SharedKeySigner::httpDate(const QDateTime &time)
{
    return QLocale::c()
        .toString(time.toTimeZone(QTimeZone::utc()),
                  QStringLiteral("ddd, dd MMM yyyy HH:mm:ss 'GMT'"))
        .toLatin1();
}

QByteArray SharedKeySigner::canonicalResource(const QUrl &url) const
{
    QByteArray path = url.path(QUrl::FullyEncoded).toUtf8();
    if (path.isEmpty())
        path = "/";
    QByteArray resource = '/' + m_account.toUtf8() + path;

    // Query parameters: names lower-cased, values decoded; a repeated name lists its values
    // sorted and comma-joined.
    QMap<QByteArray, QList<QByteArray>> parameters;
    const QByteArray query = url.query(QUrl::FullyEncoded).toUtf8();
    for (const QByteArray &pair : query.split('&')) {
        if (pair.isEmpty())
            continue;
        const qsizetype eq = pair.indexOf('=');
        const QByteArray name = decodedPercent(eq < 0 ? pair : pair.left(eq)).toLower();
        const QByteArray value = eq < 0 ? QByteArray() : decodedPercent(pair.mid(eq + 1));
        parameters[name].append(value);
    }

    if (m_scheme != Scheme::BlobQueue) {
        // Table: only comp counts, written as a query string.
        if (const auto comp = parameters.constFind("comp"); comp != parameters.cend())
            resource += "?comp=" + comp->value(0);
        return resource;
    }
    for (auto it = parameters.begin(); it != parameters.end(); ++it) {
        std::sort(it->begin(), it->end());
        resource += '\n' + it.key() + ':' + it->join(',');
    }
    return resource;
}

QByteArray SharedKeySigner::stringToSign(const HttpRequest &request) const
{
    const QByteArray verb = request.method.toUpper();
    const QByteArray resource = canonicalResource(request.url);
    QByteArray date = request.header("x-ms-date");
    if (date.isEmpty())
        date = request.header("Date");

    switch (m_scheme) {
    case Scheme::TableLite:
        return date + '\n' + resource;
    case Scheme::Table:
        return verb + '\n' + request.header("Content-MD5") + '\n' + request.header("Content-Type") +
               '\n' + date + '\n' + resource;
    case Scheme::BlobQueue:
        break;
    }

    QByteArray text = verb + '\n';
    for (const char *name : standardHeaders) {
        if (name)
            text += request.header(name).trimmed();
        else if (!request.body.isEmpty())
            text += QByteArray::number(request.body.size());
        text += '\n';
    }
    // x-ms-* headers: names lower-cased and sorted, values trimmed; repeated names joined.
    QMap<QByteArray, QByteArray> msHeaders;
    for (const auto &[name, value] : request.headers) {
        const QByteArray key = name.toLower().trimmed();
        if (!key.startsWith("x-ms-"))
            continue;
        auto it = msHeaders.find(key);
        if (it == msHeaders.end())
            msHeaders.insert(key, value.trimmed());
        else
            *it += ',' + value.trimmed();
    }
    for (auto it = msHeaders.cbegin(); it != msHeaders.cend(); ++it)
        text += it.key() + ':' + it.value() + '\n';
    return text + resource;
}

QByteArray SharedKeySigner::signature(const QByteArray &stringToSign) const
{
    return QMessageAuthenticationCode::hash(stringToSign, m_key, QCryptographicHash::Sha256)
        .toBase64();
}

void SharedKeySigner::sign(HttpRequest &request, const QDateTime &now) const
{
    request.setHeader(QByteArrayLiteral("x-ms-date"), httpDate(now));
    if (!request.hasHeader("x-ms-version"))
        request.setHeader(QByteArrayLiteral("x-ms-version"), apiVersion());
    const QByteArray scheme = m_scheme == Scheme::TableLite ? "SharedKeyLite " : "SharedKey ";
    request.setHeader(QByteArrayLiteral("Authorization"),
                      scheme + m_account.toUtf8() + ':' + signature(stringToSign(request)));
}

Signer SharedKeySigner::signer() const
{
    return [self = *this](HttpRequest &request) {
        self.sign(request, QDateTime::currentDateTimeUtc());
    };
}

} // namespace converge
