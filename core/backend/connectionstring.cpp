// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "connectionstring.h"

#include "redactor.h"

#include <QHash>
#include <QRegularExpression>

#include <array>

namespace converge {

namespace {

// The keys we know, in their documented spelling.
constexpr std::array knownKeys{
    "DefaultEndpointsProtocol",
    "AccountName",
    "AccountKey",
    "EndpointSuffix",
    "BlobEndpoint",
    "QueueEndpoint",
    "TableEndpoint",
    "FileEndpoint",
    "SharedAccessSignature",
    "UseDevelopmentStorage",
};

const QString devAccount = QStringLiteral("devstoreaccount1");
// Published in Microsoft's Azurite documentation; not a secret.
const QString devKey = QStringLiteral(
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==");

std::optional<ConnectionString> notAConnectionString(QString *error, const QString &message)
{
    if (error)
        *error = message;
    return std::nullopt;
}

QUrl devEndpoint(int port)
{
    QUrl url;
    url.setScheme(QStringLiteral("http"));
    url.setHost(QStringLiteral("127.0.0.1"));
    url.setPort(port);
    url.setPath(QLatin1Char('/') + devAccount);
    return url;
}

} // namespace

ConnectionString ConnectionString::developmentStorage()
{
    ConnectionString c;
    c.accountName = devAccount;
    c.accountKey = devKey;
    c.protocol = QStringLiteral("http");
    c.blobEndpoint = devEndpoint(10000);
    c.queueEndpoint = devEndpoint(10001);
    c.tableEndpoint = devEndpoint(10002);
    c.isDevelopmentStorage = true;
    return c;
}

std::optional<ConnectionString> ConnectionString::parse(const QString &text, QString *error)
{
    QHash<QString, QString> values; // by documented key name
    int position = 0;
    for (const QString &rawSegment : text.split(QLatin1Char(';'))) {
        ++position;
        const QString segment = rawSegment.trimmed();
        if (segment.isEmpty())
            continue; // "a=b;" and ";;" are common and harmless
        const qsizetype eq = segment.indexOf(QLatin1Char('='));
        if (eq < 0) {
            // The segment may be a pasted secret: show only its position.
            return notAConnectionString(
                error, QStringLiteral("part %1 of the connection string has no '=' "
                                      "(expected Key=Value pairs separated by ';')")
                           .arg(position));
        }
        const QString key = segment.left(eq).trimmed();
        const QString value = segment.mid(eq + 1).trimmed();
        QString known;
        for (const char *name : knownKeys) {
            if (key.compare(QLatin1String(name), Qt::CaseInsensitive) == 0)
                known = QLatin1String(name);
        }
        if (known.isEmpty()) {
            // Known keys are short words. Anything else may be a pasted secret (a base64 key holds
            // '=' too): name its position, not its text.
            static const QRegularExpression word(QStringLiteral("^[A-Za-z]{1,40}$"));
            if (!word.match(key).hasMatch()) {
                return notAConnectionString(
                    error, QStringLiteral("part %1 of the connection string is not a "
                                          "Key=Value pair (text not shown: it may be a "
                                          "secret)")
                               .arg(position));
            }
            return notAConnectionString(
                error, QStringLiteral("unknown connection string key \"%1\"").arg(key));
        }
        if (values.contains(known))
            return notAConnectionString(error,
                                        QStringLiteral("the key %1 appears twice").arg(known));
        values.insert(known, value);
    }
    if (values.isEmpty())
        return notAConnectionString(error, QStringLiteral("the connection string is empty"));

    if (values.contains(QStringLiteral("UseDevelopmentStorage"))) {
        if (values.value(QStringLiteral("UseDevelopmentStorage"))
                .compare(QLatin1String("true"), Qt::CaseInsensitive) != 0) {
            return notAConnectionString(
                error, QStringLiteral("UseDevelopmentStorage only takes the value true"));
        }
        if (values.size() > 1) {
            return notAConnectionString(
                error, QStringLiteral("UseDevelopmentStorage=true cannot be combined with "
                                      "other keys; spell out the endpoints instead"));
        }
        return developmentStorage();
    }

    ConnectionString c;
    c.accountName = values.value(QStringLiteral("AccountName"));
    c.accountKey = values.value(QStringLiteral("AccountKey"));
    if (values.contains(QStringLiteral("DefaultEndpointsProtocol"))) {
        c.protocol = values.value(QStringLiteral("DefaultEndpointsProtocol")).toLower();
        if (c.protocol != QLatin1String("https") && c.protocol != QLatin1String("http"))
            return notAConnectionString(
                error, QStringLiteral("DefaultEndpointsProtocol must be https or http"));
    }
    if (values.contains(QStringLiteral("EndpointSuffix"))) {
        c.endpointSuffix = values.value(QStringLiteral("EndpointSuffix"));
        if (c.endpointSuffix.isEmpty() || c.endpointSuffix.contains(QLatin1Char('/')))
            return notAConnectionString(
                error, QStringLiteral("EndpointSuffix must be a DNS suffix such as "
                                      "core.windows.net"));
    }
    if (values.contains(QStringLiteral("AccountKey")) &&
        !QByteArray::fromBase64Encoding(c.accountKey.toLatin1(),
                                        QByteArray::AbortOnBase64DecodingErrors)) {
        return notAConnectionString(error, QStringLiteral("AccountKey is not valid base64"));
    }
    if (values.contains(QStringLiteral("SharedAccessSignature"))) {
        QString sasError;
        c.sas = SasToken::parse(values.value(QStringLiteral("SharedAccessSignature")), &sasError);
        if (!c.sas)
            return notAConnectionString(error,
                                        QStringLiteral("SharedAccessSignature: ") + sasError);
    }

    const struct
    {
        const char *key;
        const char *service;
        QUrl *target;
    } endpoints[] = {
        {"BlobEndpoint", "blob", &c.blobEndpoint},
        {"QueueEndpoint", "queue", &c.queueEndpoint},
        {"TableEndpoint", "table", &c.tableEndpoint},
    };
    bool anyExplicit = false;
    for (const auto &endpoint : endpoints) {
        const QString key = QLatin1String(endpoint.key);
        if (!values.contains(key))
            continue;
        anyExplicit = true;
        const QUrl url(values.value(key), QUrl::StrictMode);
        const QString scheme = url.scheme().toLower();
        if (!url.isValid() || url.host().isEmpty() ||
            (scheme != QLatin1String("https") && scheme != QLatin1String("http"))) {
            return notAConnectionString(
                error, QStringLiteral("%1 must be an absolute http(s) URL").arg(key));
        }
        *endpoint.target = url;
    }

    if (c.accountName.isEmpty()) {
        // Without a name, only explicit endpoints can work: Shared Key signs with the name, and
        // default endpoints are built from it. With a SAS, or with no secret at all (the form a
        // person signed in with Microsoft Entra ID has: the token comes from elsewhere).
        if (!c.accountKey.isEmpty())
            return notAConnectionString(error, QStringLiteral("AccountKey needs AccountName"));
        if (!anyExplicit) {
            return notAConnectionString(error,
                                        QStringLiteral("the connection string names no account "
                                                       "(AccountName=...)"));
        }
    }
    for (const auto &endpoint : endpoints) {
        if (!endpoint.target->isEmpty() || c.accountName.isEmpty())
            continue;
        QUrl url;
        url.setScheme(c.protocol);
        url.setHost(c.accountName + QLatin1Char('.') + QLatin1String(endpoint.service) +
                    QLatin1Char('.') + c.endpointSuffix);
        url.setPath(QStringLiteral("/"));
        *endpoint.target = url;
    }
    return c;
}

QString ConnectionString::accountNameFromEndpoints() const
{
    if (!accountName.isEmpty())
        return accountName;
    for (const QUrl &url : {blobEndpoint, queueEndpoint, tableEndpoint}) {
        if (url.isEmpty())
            continue;
        // ACCOUNT.blob.core.windows.net, or path-style http://127.0.0.1:10000/ACCOUNT (Azurite,
        // Azure Stack).
        const QStringList labels = url.host().split(QLatin1Char('.'));
        static const QStringList services{QStringLiteral("blob"), QStringLiteral("queue"),
                                          QStringLiteral("table")};
        if (labels.size() > 2 && services.contains(labels.at(1).toLower()))
            return labels.first().toLower();
        const QString first = url.path().section(QLatin1Char('/'), 1, 1);
        if (!first.isEmpty())
            return first;
    }
    return {};
}

Credentials ConnectionString::credentials() const
{
    if (!accountKey.isEmpty())
        return Credentials::azureSharedKey(accountName, accountKey);
    if (sas)
        return Credentials::azureSas(sas->toString());
    return {};
}

QString ConnectionString::redacted() const
{
    if (isDevelopmentStorage)
        return QStringLiteral("UseDevelopmentStorage=true");
    QStringList parts;
    parts << QStringLiteral("DefaultEndpointsProtocol=") + protocol;
    if (!accountName.isEmpty())
        parts << QStringLiteral("AccountName=") + accountName;
    if (!accountKey.isEmpty())
        parts << QStringLiteral("AccountKey=") + Redactor::mask();
    if (sas)
        parts << QStringLiteral("SharedAccessSignature=") + sas->redacted();
    parts << QStringLiteral("BlobEndpoint=") + blobEndpoint.toString()
          << QStringLiteral("QueueEndpoint=") + queueEndpoint.toString()
          << QStringLiteral("TableEndpoint=") + tableEndpoint.toString();
    return parts.join(QLatin1Char(';'));
}

} // namespace converge
