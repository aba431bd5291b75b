// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "backenderror.h"

#include <QTest>

using namespace converge;
using Category = BackendError::Category;

class tst_BackendError final : public QObject
{
    Q_OBJECT

private slots:
    void categoryForStatus_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<Category>("category");
        QTest::newRow("no response") << 0 << Category::Transient;
        QTest::newRow("301") << 301 << Category::Invalid;
        QTest::newRow("400") << 400 << Category::Invalid;
        QTest::newRow("401") << 401 << Category::Unauthorized;
        QTest::newRow("403") << 403 << Category::Unauthorized;
        QTest::newRow("404") << 404 << Category::NotFound;
        QTest::newRow("408") << 408 << Category::Transient;
        QTest::newRow("409") << 409 << Category::Conflict;
        QTest::newRow("412") << 412 << Category::Conflict;
        QTest::newRow("413") << 413 << Category::Invalid;
        QTest::newRow("429") << 429 << Category::Throttled;
        QTest::newRow("500") << 500 << Category::Transient;
        QTest::newRow("501") << 501 << Category::Transient;
        QTest::newRow("503 ServerBusy") << 503 << Category::Throttled;
        QTest::newRow("504") << 504 << Category::Transient;
    }

    void categoryForStatus()
    {
        QFETCH(int, status);
        QFETCH(Category, category);
        QCOMPARE(BackendError::categoryForStatus(status), category);
    }

    void isRetriable_data()
    {
        QTest::addColumn<Category>("category");
        QTest::addColumn<bool>("retriable");
        QTest::newRow("NotFound") << Category::NotFound << false;
        QTest::newRow("Conflict") << Category::Conflict << true;
        QTest::newRow("Throttled") << Category::Throttled << true;
        QTest::newRow("Transient") << Category::Transient << true;
        QTest::newRow("Unauthorized") << Category::Unauthorized << false;
        QTest::newRow("Invalid") << Category::Invalid << false;
        QTest::newRow("Terminal") << Category::Terminal << false;
    }

    void isRetriable()
    {
        QFETCH(Category, category);
        QFETCH(bool, retriable);
        BackendError error;
        error.category = category;
        QCOMPARE(error.isRetriable(), retriable);
        // Names round-trip, spelled as the data tag.
        QCOMPARE(BackendError::categoryName(category),
                 QString::fromLatin1(QTest::currentDataTag()));
        QCOMPARE(BackendError::categoryFromName(QString::fromLatin1(QTest::currentDataTag())),
                 std::optional<Category>(category));
    }

    void unknownNamesAreRejected()
    {
        QVERIFY(!BackendError::categoryFromName(QStringLiteral("InProgress")).has_value());
        QVERIFY(!BackendError::categoryFromName(QStringLiteral("notfound")).has_value());
    }

    void toStringSaysEverything()
    {
        BackendError error;
        error.category = Category::Conflict;
        error.httpStatus = 409;
        error.code = QStringLiteral("ContainerAlreadyExists");
        error.message = QStringLiteral("The specified container already exists.");
        error.requestId = QStringLiteral("8f3c");
        error.retryAfter = std::chrono::milliseconds(1500);
        QCOMPARE(error.toString(),
                 QStringLiteral("Conflict (409 ContainerAlreadyExists): The specified container "
                                "already exists. [request 8f3c]"));
        BackendError bare;
        bare.category = Category::Transient;
        QCOMPARE(bare.toString(), QStringLiteral("Transient"));
    }
};

QTEST_GUILESS_MAIN(tst_BackendError)
#include "tst_backenderror.moc"
