// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// The HTTP/1.1 answer reader: framing by length, chunks and end of connection, interim
// answers, keep-alive, limits, and answers that are not HTTP. Every case is fed whole, byte by
// byte and in two halves, since a socket may deliver any split.
#include "httpresponseparser.h"

#include <QTest>

using namespace converge;

namespace {

using State = HttpResponseParser::State;

/// Feeds `wire` in pieces of `step` bytes (0: all at once), then ends the connection if asked.
State feedAll(HttpResponseParser &parser, const QByteArray &wire, qsizetype step, bool close)
{
    State state = State::Incomplete;
    if (step == 0) {
        state = parser.feed(wire);
    } else {
        for (qsizetype at = 0; at < wire.size() && state == State::Incomplete; at += step)
            state = parser.feed(QByteArrayView(wire).sliced(at, std::min(step, wire.size() - at)));
    }
    if (close && state == State::Incomplete)
        state = parser.finish();
    return state;
}

} // namespace

class tst_HttpResponseParser final : public QObject
{
    Q_OBJECT

private slots:
    void answers_data()
    {
        QTest::addColumn<QByteArray>("wire");
        QTest::addColumn<bool>("head");
        QTest::addColumn<bool>("close");
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<bool>("keepAlive");

        QTest::newRow("content-length")
            << QByteArray("HTTP/1.1 201 Created\r\nContent-Length: 5\r\nETag: \"x\"\r\n\r\nhello")
            << false << false << 201 << QByteArray("hello") << true;
        QTest::newRow("empty body")
            << QByteArray("HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n") << false << false
            << 202 << QByteArray() << true;
        QTest::newRow("no reason phrase")
            << QByteArray("HTTP/1.1 200\r\nContent-Length: 2\r\n\r\nok") << false << false << 200
            << QByteArray("ok") << true;
        QTest::newRow("bare LF lines") << QByteArray("HTTP/1.1 200 OK\nContent-Length: 2\n\nok")
                                       << false << false << 200 << QByteArray("ok") << true;
        QTest::newRow("chunked")
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                          "5\r\nhello\r\nA;ext=1\r\n, world!!!\r\n0\r\nX-Trailer: t\r\n\r\n")
            << false << false << 200 << QByteArray("hello, world!!!") << true;
        QTest::newRow("chunked wins over length")
            << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 100\r\nTransfer-Encoding: "
                          "chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n")
            << false << false << 200 << QByteArray("ok") << true;
        QTest::newRow("until close")
            << QByteArray("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nto the end") << false
            << true << 200 << QByteArray("to the end") << false;
        QTest::newRow("connection close")
            << QByteArray(
                   "HTTP/1.1 409 Conflict\r\nConnection: close\r\nContent-Length: 1\r\n\r\n!")
            << false << false << 409 << QByteArray("!") << false;
        QTest::newRow("http/1.0") << QByteArray("HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\n1")
                                  << false << false << 200 << QByteArray("1") << false;
        QTest::newRow("http/1.0 keep-alive")
            << QByteArray("HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 1\r\n\r\n1")
            << false << false << 200 << QByteArray("1") << true;
        QTest::newRow("head ignores the length")
            << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 1234\r\n\r\n") << true << false << 200
            << QByteArray() << true;
        QTest::newRow("204 has no body") << QByteArray("HTTP/1.1 204 No Content\r\n\r\n") << false
                                         << false << 204 << QByteArray() << true;
        QTest::newRow("304 has no body")
            << QByteArray("HTTP/1.1 304 Not Modified\r\nContent-Length: 9\r\n\r\n") << false
            << false << 304 << QByteArray() << true;
        QTest::newRow("interim answers skipped")
            << QByteArray("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: x\r\n\r\n"
                          "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
            << false << false << 200 << QByteArray("ok") << true;
    }

    void answers()
    {
        QFETCH(QByteArray, wire);
        QFETCH(bool, head);
        QFETCH(bool, close);
        QFETCH(int, status);
        QFETCH(QByteArray, body);
        QFETCH(bool, keepAlive);
        for (const qsizetype step : {qsizetype(0), qsizetype(1), wire.size() / 2 + 1}) {
            HttpResponseParser parser(head, 1024);
            QCOMPARE(feedAll(parser, wire, step, close), State::Complete);
            QCOMPARE(parser.status(), status);
            QCOMPARE(parser.body(), body);
            QCOMPARE(parser.keepAlive(), keepAlive);
            QVERIFY(parser.hasHeaders());
            QVERIFY(parser.errorString().isEmpty());
        }
    }

    void headersKeepNamesValuesAndOrder()
    {
        HttpResponseParser parser(false, 1024);
        QCOMPARE(parser.feed("HTTP/1.1 200 OK\r\nx-ms-request-id:  abc \r\nSet: 1\r\nSet: 2\r\n"
                             "X-Folded: a\r\n  b\r\nContent-Length: 0\r\n\r\n"),
                 State::Complete);
        const HttpResponseParser::Headers expected{{"x-ms-request-id", "abc"},
                                                   {"Set", "1"},
                                                   {"Set", "2"},
                                                   {"X-Folded", "a b"},
                                                   {"Content-Length", "0"}};
        QCOMPARE(parser.headers(), expected);
    }

    void bytesAfterTheAnswerForbidReuse()
    {
        HttpResponseParser parser(false, 1024);
        QCOMPARE(parser.feed("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 200"),
                 State::Complete);
        QCOMPARE(parser.body(), QByteArray("ok"));
        QCOMPARE(parser.leftover(), QByteArray("HTTP/1.1 200"));
        QVERIFY(!parser.keepAlive());
    }

    void broken_data()
    {
        QTest::addColumn<QByteArray>("wire");
        QTest::addColumn<bool>("close");
        QTest::addColumn<bool>("started");
        QTest::addColumn<QString>("error");

        QTest::newRow("closed before any byte")
            << QByteArray() << true << false << QStringLiteral("before any answer");
        QTest::newRow("cut in the headers") << QByteArray("HTTP/1.1 200 OK\r\nContent-Le") << true
                                            << true << QStringLiteral("middle of the headers");
        QTest::newRow("cut in the body")
            << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhalf") << true << true
            << QStringLiteral("middle of the body");
        QTest::newRow("cut in a chunk")
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhe") << true
            << true << QStringLiteral("middle of the body");
        QTest::newRow("not http") << QByteArray("SSH-2.0-OpenSSH_9.2\r\n") << false << true
                                  << QStringLiteral("not an HTTP/1.x answer");
        QTest::newRow("http/2 preface") << QByteArray("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n") << false
                                        << true << QStringLiteral("not an HTTP/1.x answer");
        QTest::newRow("bad status") << QByteArray("HTTP/1.1 2x0 OK\r\n") << false << true
                                    << QStringLiteral("invalid status");
        QTest::newRow("bad header") << QByteArray("HTTP/1.1 200 OK\r\nno colon here\r\n") << false
                                    << true << QStringLiteral("invalid header field");
        QTest::newRow("space before colon")
            << QByteArray("HTTP/1.1 200 OK\r\nContent-Length : 1\r\n") << false << true
            << QStringLiteral("invalid header field");
        QTest::newRow("negative length")
            << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n") << false << true
            << QStringLiteral("invalid Content-Length");
        QTest::newRow("two lengths")
            << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n")
            << false << true << QStringLiteral("conflicting Content-Length");
        QTest::newRow("bad chunk size")
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n") << false
            << true << QStringLiteral("invalid chunk size");
        QTest::newRow("chunk longer than said")
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nabc\r\n")
            << false << true << QStringLiteral("does not end where its size says");
        QTest::newRow("switching protocols")
            << QByteArray("HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\n\r\n") << false
            << true << QStringLiteral("switched protocols");
    }

    void broken()
    {
        QFETCH(QByteArray, wire);
        QFETCH(bool, close);
        QFETCH(bool, started);
        QFETCH(QString, error);
        for (const qsizetype step : {qsizetype(0), qsizetype(1)}) {
            HttpResponseParser parser(false, 1024);
            QCOMPARE(feedAll(parser, wire, step, close), State::Failed);
            QVERIFY2(parser.errorString().contains(error), qPrintable(parser.errorString()));
            QCOMPARE(parser.started(), started);
            QVERIFY(!parser.keepAlive());
            QVERIFY(!parser.tooLarge());
        }
    }

    void limits_data()
    {
        QTest::addColumn<QByteArray>("wire");
        QTest::addColumn<bool>("tooLarge");

        QTest::newRow("announced length") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: "
                                                        "1025\r\n\r\n")
                                          << true;
        QTest::newRow("chunks add up")
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n200\r\n" +
                          QByteArray(512, 'a') + "\r\n201\r\n")
            << true;
        QTest::newRow("until close")
            << QByteArray("HTTP/1.1 200 OK\r\n\r\n" + QByteArray(1025, 'b')) << true;
        QTest::newRow("endless header section")
            << QByteArray("HTTP/1.1 200 OK\r\n" +
                          QByteArray("X-Filler: " + QByteArray(1000, 'x') + "\r\n").repeated(300))
            << false;
        QTest::newRow("endless status line")
            << QByteArray("HTTP/1.1 200 " + QByteArray(300000, 'x')) << false;
    }

    void limits()
    {
        QFETCH(QByteArray, wire);
        QFETCH(bool, tooLarge);
        HttpResponseParser parser(false, 1024);
        QCOMPARE(feedAll(parser, wire, 4096, false), State::Failed);
        QCOMPARE(parser.tooLarge(), tooLarge);
        QVERIFY(parser.body().size() <= 1024);
    }
};

QTEST_GUILESS_MAIN(tst_HttpResponseParser)
#include "tst_httpresponseparser.moc"
