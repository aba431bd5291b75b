// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "proxyresolver.h"

#include "httpclient.h"

#include <QHostAddress>
#include <QNetworkProxyFactory>
#include <QProcessEnvironment>
#include <QRegularExpression>

namespace converge {

namespace {

BackendError refusal(const QString &code, const QString &message)
{
    BackendError error;
    error.category = BackendError::Category::Terminal;
    error.code = code;
    error.message = message;
    return error;
}

/// "host:port" of a proxy, IPv6 hosts in brackets, never its user info.
QString authorityOf(const QNetworkProxy &proxy)
{
    const QString host = proxy.hostName().contains(QLatin1Char(':'))
                             ? QLatin1Char('[') + proxy.hostName() + QLatin1Char(']')
                             : proxy.hostName();
    return host + QLatin1Char(':') + QString::number(proxy.port());
}

/// One NO_PROXY entry against host and port; `entry` trimmed and lower-cased.
bool matchesEntry(QString entry, const QString &host, int port)
{
    if (entry == QLatin1String("*"))
        return true;
    // The port, when one is given: "host:8080", "[::1]:8080", but not the colons of "::1".
    int entryPort = -1;
    if (entry.startsWith(QLatin1Char('['))) {
        const qsizetype close = entry.indexOf(QLatin1Char(']'));
        if (close < 0)
            return false;
        const QString rest = entry.mid(close + 1);
        if (rest.startsWith(QLatin1Char(':')))
            entryPort = rest.mid(1).toInt();
        entry = entry.mid(1, close - 1);
    } else if (entry.count(QLatin1Char(':')) == 1) {
        const qsizetype colon = entry.indexOf(QLatin1Char(':'));
        entryPort = entry.mid(colon + 1).toInt();
        entry = entry.left(colon);
    }
    if (entryPort > 0 && entryPort != port)
        return false;

    const QHostAddress address(host);
    if (!address.isNull()) {
        if (entry.contains(QLatin1Char('/'))) {
            const auto subnet = QHostAddress::parseSubnet(entry);
            return subnet.second >= 0 && address.isInSubnet(subnet);
        }
        const QHostAddress wanted(entry);
        return !wanted.isNull() && wanted.isEqual(address, QHostAddress::StrictConversion);
    }
    if (entry.startsWith(QLatin1String("*.")))
        entry = entry.mid(2);
    else if (entry.startsWith(QLatin1Char('.')))
        entry = entry.mid(1);
    if (entry.isEmpty())
        return false;
    return host == entry || host.endsWith(QLatin1Char('.') + entry);
}

} // namespace

QString ProxyResolver::Choice::describe() const
{
    if (isDirect())
        return {};
    return QStringLiteral("proxy %1 (from %2)").arg(authorityOf(proxy), source);
}

ProxyResolver::ProxyResolver(Environment environment, SystemQuery system)
    : m_environment(std::move(environment))
    , m_system(std::move(system))
{}

ProxyResolver ProxyResolver::fromProcess()
{
    Environment environment;
    const QProcessEnvironment process = QProcessEnvironment::systemEnvironment();
    for (const QString &name : process.keys())
        environment.insert(name, process.value(name));
    return ProxyResolver(std::move(environment), [](const QNetworkProxyQuery &query) {
        return QNetworkProxyFactory::systemProxyForQuery(query);
    });
}

QString ProxyResolver::variable(const QString &lowerName, QString *usedName) const
{
    for (const QString &name : {lowerName, lowerName.toUpper()}) {
        const QString value = m_environment.value(name).trimmed();
        if (!value.isEmpty()) {
            if (usedName)
                *usedName = name;
            return value;
        }
    }
    return {};
}

bool ProxyResolver::matchesNoProxy(const QString &noProxy, const QString &host, int port)
{
    const QString wanted = host.toLower();
    static const QRegularExpression separators(QStringLiteral("[,\\s]+"));
    for (const QString &entry : noProxy.toLower().split(separators, Qt::SkipEmptyParts)) {
        if (matchesEntry(entry, wanted, port))
            return true;
    }
    return false;
}

ProxyResolver::Choice ProxyResolver::resolve(const QUrl &url) const
{
    Choice direct;
    const bool https = url.scheme().compare(QLatin1String("https"), Qt::CaseInsensitive) == 0;
    const QString host = url.host();
    const int port = url.port(https ? 443 : 80);
    if (HttpClient::isLoopbackHost(host) &&
        m_environment.value(QStringLiteral("CONVERGE_PROXY_LOOPBACK")) != QLatin1String("1")) {
        return direct;
    }

    QString name;
    const QString value =
        variable(https ? QStringLiteral("https_proxy") : QStringLiteral("http_proxy"), &name);
    if (value.isEmpty()) {
        if (!m_system)
            return direct;
        const QList<QNetworkProxy> proxies = m_system(QNetworkProxyQuery(url));
        for (const QNetworkProxy &proxy : proxies) {
            if (proxy.type() == QNetworkProxy::NoProxy ||
                proxy.type() == QNetworkProxy::DefaultProxy)
                return direct;
            if (proxy.type() != QNetworkProxy::HttpProxy &&
                proxy.type() != QNetworkProxy::Socks5Proxy)
                continue;
            Choice choice;
            choice.proxy = QNetworkProxy(proxy.type(), proxy.hostName(), proxy.port());
            choice.source = QStringLiteral("the desktop's proxy settings");
            if (!proxy.user().isEmpty())
                choice.refusal = refusal(
                    QStringLiteral("ProxyAuthenticationUnsupported"),
                    QStringLiteral("the %1 needs a user name and password; authenticated proxies "
                                   "are not supported yet")
                        .arg(choice.describe()));
            return choice;
        }
        return direct;
    }

    if (matchesNoProxy(variable(QStringLiteral("no_proxy"), nullptr), host, port))
        return direct;

    Choice choice;
    choice.source = QStringLiteral("environment variable %1").arg(name);
    QUrl proxyUrl(value.contains(QLatin1String("://")) ? value : QStringLiteral("http://") + value);
    const QString scheme = proxyUrl.scheme().toLower();
    QNetworkProxy::ProxyType type = QNetworkProxy::HttpProxy;
    int defaultPort = 80;
    if (scheme == QLatin1String("socks5") || scheme == QLatin1String("socks5h")) {
        type = QNetworkProxy::Socks5Proxy;
        defaultPort = 1080;
    } else if (scheme != QLatin1String("http")) {
        choice.proxy = QNetworkProxy(QNetworkProxy::HttpProxy, proxyUrl.host(), 0);
        choice.refusal =
            refusal(QStringLiteral("ProxySchemeUnsupported"),
                    QStringLiteral("%1 names a %2:// proxy; only http:// and socks5:// proxies are "
                                   "supported")
                        .arg(choice.source, scheme));
        return choice;
    }
    if (!proxyUrl.isValid() || proxyUrl.host().isEmpty()) {
        choice.proxy = QNetworkProxy(QNetworkProxy::HttpProxy, QStringLiteral("?"), 0);
        choice.refusal = refusal(QStringLiteral("InvalidProxy"),
                                 QStringLiteral("%1 is not a proxy URL (expected "
                                                "http://host:port)")
                                     .arg(choice.source));
        return choice;
    }
    choice.proxy = QNetworkProxy(type, proxyUrl.host(), quint16(proxyUrl.port(defaultPort)));
    if (!proxyUrl.userName().isEmpty() || !proxyUrl.password().isEmpty()) {
        choice.refusal = refusal(
            QStringLiteral("ProxyAuthenticationUnsupported"),
            QStringLiteral("the %1 carries a user name and password; authenticated proxies are "
                           "not supported yet: use a proxy that needs no sign-in, or list the "
                           "host in NO_PROXY")
                .arg(choice.describe()));
    }
    return choice;
}

} // namespace converge
