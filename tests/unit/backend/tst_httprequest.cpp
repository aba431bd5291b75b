// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// The Host header as sent and signed: IPv6 literals in brackets, the port unless it is the
// scheme's default.
#include "httpconnection.h"
#include "httprequest.h"

#include <QTest>

using namespace converge;

class tst_HttpRequest final : public QObject
{
    Q_OBJECT

private slots:
    void hostHeader_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QByteArray>("host");
        QTest::newRow("ipv6 loopback")
            << "http://[::1]:10000/devstoreaccount1" << QByteArray("[::1]:10000");
        QTest::newRow("ipv6 default port") << "https://[fd00::5]/" << QByteArray("[fd00::5]");
        QTest::newRow("ipv4") << "http://127.0.0.1:10000/x" << QByteArray("127.0.0.1:10000");
        QTest::newRow("name, default port")
            << "https://a.blob.core.windows.net:443/" << QByteArray("a.blob.core.windows.net");
    }

    void hostHeader()
    {
        QFETCH(QString, url);
        QFETCH(QByteArray, host);
        QCOMPARE(HttpRequest::hostHeader(QUrl(url)), host);
        HttpRequest request;
        request.url = QUrl(url);
        QVERIFY(
            HttpConnection::serialize(request).contains(QByteArray("\r\nHost: " + host + "\r\n")));
    }
};

QTEST_GUILESS_MAIN(tst_HttpRequest)
#include "tst_httprequest.moc"
