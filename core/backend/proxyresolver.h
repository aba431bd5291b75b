// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "backenderror.h"

#include <QHash>
#include <QList>
#include <QNetworkProxy>
#include <QNetworkProxyQuery>
#include <QString>
#include <QUrl>

#include <functional>
#include <optional>

namespace converge {

/// Which proxy, if any, a request to a URL goes through.
///
/// The environment first, as curl and most command-line tools read it: `https_proxy` /
/// `HTTPS_PROXY` for https URLs, `http_proxy` / `HTTP_PROXY` for http (lower case wins), and
/// `no_proxy` / `NO_PROXY` (a comma list of host suffixes, IP addresses, CIDR ranges, each with
/// an optional `:port`, or `*`). Where no proxy variable is set, the desktop's settings as
/// QNetworkProxyFactory::systemProxyForQuery gives them (libproxy on Linux).
///
/// Loopback hosts (localhost, 127.0.0.0/8, ::1) are never proxied unless the environment asks
/// with CONVERGE_PROXY_LOOPBACK=1: a proxy on another machine would reach its own loopback, not
/// ours, so a remote HTTPS_PROXY would break a local emulator.
///
/// Only plain http proxies without credentials are supported: a proxy URL with a user name or
/// another scheme gives a refusal (Terminal) that names it, never a silent direct connection.
class ProxyResolver final
{
public:
    using Environment = QHash<QString, QString>;
    using SystemQuery = std::function<QList<QNetworkProxy>(const QNetworkProxyQuery &)>;

    struct Choice
    {
        QNetworkProxy proxy{QNetworkProxy::NoProxy}; ///< NoProxy: connect directly
        QString source; ///< "environment variable HTTPS_PROXY", "the desktop's proxy settings"
        std::optional<BackendError> refusal; ///< set when the proxy setting cannot be used

        bool isDirect() const { return proxy.type() == QNetworkProxy::NoProxy; }
        /// "proxy 10.0.0.1:3128 (from environment variable HTTPS_PROXY)"; empty when direct.
        QString describe() const;
    };

    /// `system` may be empty: then no desktop settings are consulted.
    ProxyResolver(Environment environment, SystemQuery system);

    /// The process environment and QNetworkProxyFactory::systemProxyForQuery.
    static ProxyResolver fromProcess();

    Choice resolve(const QUrl &url) const;

    /// Whether `host:port` matches a NO_PROXY value (see the class comment).
    static bool matchesNoProxy(const QString &noProxy, const QString &host, int port);

private:
    QString variable(const QString &lowerName, QString *usedName) const;

    Environment m_environment;
    SystemQuery m_system;
};

} // namespace converge
