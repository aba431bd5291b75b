// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// Which proxy a URL takes: the environment's variables as curl reads them, NO_PROXY's forms,
// loopback kept direct unless asked, the desktop's settings only where no variable is set, and
// refusals (credentials, other schemes) that name the proxy without its password.
#include "proxyresolver.h"

#include <QTest>

using namespace converge;

namespace {

ProxyResolver::SystemQuery systemProxy(const QString &host, quint16 port, int *calls = nullptr)
{
    return [host, port, calls](const QNetworkProxyQuery &) {
        if (calls)
            ++*calls;
        return QList<QNetworkProxy>{QNetworkProxy(QNetworkProxy::HttpProxy, host, port)};
    };
}

} // namespace

class tst_ProxyResolver final : public QObject
{
    Q_OBJECT

private slots:
    void resolve_data()
    {
        QTest::addColumn<QString>("environment"); // "NAME=value;NAME=value"
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("expected"); // "host:port" or "direct"

        QTest::newRow("https") << "HTTPS_PROXY=http://proxy.corp:3128"
                               << "https://acct.blob.core.windows.net/"
                               << "proxy.corp:3128";
        QTest::newRow("https lower case wins")
            << "HTTPS_PROXY=http://upper:1;https_proxy=http://lower:2"
            << "https://acct.blob.core.windows.net/"
            << "lower:2";
        QTest::newRow("https ignores HTTP_PROXY") << "HTTP_PROXY=http://proxy:3128"
                                                  << "https://acct.blob.core.windows.net/"
                                                  << "direct";
        QTest::newRow("http takes HTTP_PROXY") << "HTTP_PROXY=proxy:3128"
                                               << "http://10.1.2.3:10000/x"
                                               << "proxy:3128";
        QTest::newRow("no scheme, no port") << "HTTPS_PROXY=proxy"
                                            << "https://a.example/"
                                            << "proxy:80";
        QTest::newRow("socks5") << "HTTPS_PROXY=socks5://s:1080"
                                << "https://a.example/"
                                << "s:1080";
        QTest::newRow("suffix") << "HTTPS_PROXY=p:1;NO_PROXY=core.windows.net"
                                << "https://acct.blob.core.windows.net/"
                                << "direct";
        QTest::newRow("dot suffix") << "HTTPS_PROXY=p:1;no_proxy=.windows.net"
                                    << "https://acct.blob.core.windows.net/"
                                    << "direct";
        QTest::newRow("star dot suffix") << "HTTPS_PROXY=p:1;no_proxy=*.windows.net"
                                         << "https://acct.blob.core.windows.net/"
                                         << "direct";
        QTest::newRow("suffix is per label") << "HTTPS_PROXY=p:1;NO_PROXY=dows.net"
                                             << "https://acct.blob.core.windows.net/"
                                             << "p:1";
        QTest::newRow("list with spaces") << "HTTPS_PROXY=p:1;NO_PROXY=a.example, b.example"
                                          << "https://b.example/"
                                          << "direct";
        QTest::newRow("star") << "HTTPS_PROXY=p:1;NO_PROXY=*"
                              << "https://b.example/"
                              << "direct";
        QTest::newRow("ip") << "HTTP_PROXY=p:1;NO_PROXY=10.1.2.3"
                            << "http://10.1.2.3:10000/"
                            << "direct";
        QTest::newRow("other ip") << "HTTP_PROXY=p:1;NO_PROXY=10.1.2.4"
                                  << "http://10.1.2.3/"
                                  << "p:1";
        QTest::newRow("cidr") << "HTTP_PROXY=p:1;NO_PROXY=10.0.0.0/8"
                              << "http://10.1.2.3/"
                              << "direct";
        QTest::newRow("port matches") << "HTTPS_PROXY=p:1;NO_PROXY=a.example:8443"
                                      << "https://a.example:8443/"
                                      << "direct";
        QTest::newRow("port differs") << "HTTPS_PROXY=p:1;NO_PROXY=a.example:8443"
                                      << "https://a.example/"
                                      << "p:1";
        QTest::newRow("ipv6") << "HTTPS_PROXY=p:1;NO_PROXY=fd00::5"
                              << "https://[fd00::5]:9/"
                              << "direct";
        QTest::newRow("ipv6 bracketed port") << "HTTPS_PROXY=p:1;NO_PROXY=[fd00::5]:9"
                                             << "https://[fd00::5]:9/"
                                             << "direct";
        QTest::newRow("ipv6 proxied") << "HTTPS_PROXY=p:1;NO_PROXY=fd00::6"
                                      << "https://[fd00::5]:9/"
                                      << "p:1";
        QTest::newRow("loopback direct") << "HTTP_PROXY=p:1"
                                         << "http://127.0.0.1:10000/"
                                         << "direct";
        QTest::newRow("localhost direct") << "HTTP_PROXY=p:1"
                                          << "http://localhost:10000/"
                                          << "direct";
        QTest::newRow("ipv6 loopback direct") << "HTTP_PROXY=p:1"
                                              << "http://[::1]:10000/"
                                              << "direct";
        QTest::newRow("loopback when asked") << "HTTP_PROXY=p:1;CONVERGE_PROXY_LOOPBACK=1"
                                             << "http://127.0.0.1:10000/"
                                             << "p:1";
        QTest::newRow("loopback asked, NO_PROXY wins")
            << "HTTP_PROXY=p:1;CONVERGE_PROXY_LOOPBACK=1;NO_PROXY=127.0.0.1"
            << "http://127.0.0.1:10000/"
            << "direct";
        QTest::newRow("nothing set") << ""
                                     << "https://a.example/"
                                     << "direct";
    }

    void resolve()
    {
        QFETCH(QString, environment);
        QFETCH(QString, url);
        QFETCH(QString, expected);
        ProxyResolver::Environment env;
        for (const QString &pair : environment.split(QLatin1Char(';'), Qt::SkipEmptyParts)) {
            const qsizetype eq = pair.indexOf(QLatin1Char('='));
            env.insert(pair.left(eq), pair.mid(eq + 1));
        }
        const ProxyResolver resolver(env, {});
        const ProxyResolver::Choice choice = resolver.resolve(QUrl(url));
        QVERIFY2(!choice.refusal, qPrintable(choice.refusal ? choice.refusal->message : QString()));
        const QString got =
            choice.isDirect()
                ? QStringLiteral("direct")
                : QStringLiteral("%1:%2").arg(choice.proxy.hostName()).arg(choice.proxy.port());
        QCOMPARE(got, expected);
    }

    void namesTheVariable()
    {
        const ProxyResolver resolver({{QStringLiteral("https_proxy"), QStringLiteral("p:3128")}},
                                     {});
        const ProxyResolver::Choice choice = resolver.resolve(QUrl(QStringLiteral("https://a.b/")));
        QCOMPARE(choice.describe(), QStringLiteral("proxy p:3128 (from environment variable "
                                                   "https_proxy)"));
        QCOMPARE(choice.proxy.type(), QNetworkProxy::HttpProxy);
    }

    void credentialsAreRefusedWithoutThePassword()
    {
        const ProxyResolver resolver(
            {{QStringLiteral("HTTPS_PROXY"), QStringLiteral("http://alice:s3cret@proxy:3128")}},
            {});
        const ProxyResolver::Choice choice = resolver.resolve(QUrl(QStringLiteral("https://a.b/")));
        QVERIFY(choice.refusal);
        QCOMPARE(choice.refusal->category, BackendError::Category::Terminal);
        QVERIFY2(choice.refusal->message.contains(QLatin1String("proxy:3128")),
                 qPrintable(choice.refusal->message));
        QVERIFY2(choice.refusal->message.contains(QLatin1String("not supported yet")),
                 qPrintable(choice.refusal->message));
        QVERIFY(!choice.refusal->message.contains(QLatin1String("s3cret")));
        QVERIFY(!choice.refusal->message.contains(QLatin1String("alice")));
    }

    void otherSchemesAreRefused()
    {
        const ProxyResolver resolver(
            {{QStringLiteral("HTTPS_PROXY"), QStringLiteral("https://proxy:3128")}}, {});
        const ProxyResolver::Choice choice = resolver.resolve(QUrl(QStringLiteral("https://a.b/")));
        QVERIFY(choice.refusal);
        QVERIFY2(choice.refusal->message.contains(QLatin1String("HTTPS_PROXY")),
                 qPrintable(choice.refusal->message));
    }

    void desktopSettingsWhereNoVariableIsSet()
    {
        int calls = 0;
        const ProxyResolver resolver({}, systemProxy(QStringLiteral("desk"), 8080, &calls));
        const ProxyResolver::Choice choice = resolver.resolve(QUrl(QStringLiteral("https://a.b/")));
        QCOMPARE(choice.proxy.hostName(), QStringLiteral("desk"));
        QCOMPARE(choice.source, QStringLiteral("the desktop's proxy settings"));
        QCOMPARE(calls, 1);
        // Loopback is not even asked about; a variable overrides the desktop.
        QVERIFY(resolver.resolve(QUrl(QStringLiteral("http://127.0.0.1:1/"))).isDirect());
        QCOMPARE(calls, 1);
        const ProxyResolver withVariable({{QStringLiteral("HTTPS_PROXY"), QStringLiteral("env:1")},
                                          {QStringLiteral("NO_PROXY"), QStringLiteral("a.b")}},
                                         systemProxy(QStringLiteral("desk"), 8080, &calls));
        QVERIFY(withVariable.resolve(QUrl(QStringLiteral("https://a.b/"))).isDirect());
        QCOMPARE(calls, 1);
    }
};

QTEST_GUILESS_MAIN(tst_ProxyResolver)
#include "tst_proxyresolver.moc"
