// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// WorkspaceRunner: tasks run in order on the runner's thread, and their results reach the
// context's thread exactly once. The hand-over must leave the shared future state as the task
// left it: the window's soak test crashed (heap corruption in the text documents and item
// views) because the hand-over took the result with QFuture::takeResult(), which resets the
// state while the task's QPromise still lives on the pool thread; the promise's destructor then
// saw an unfinished task, cancelled and finished it a second time, racing with the GUI thread.
#include "workspacerunner.h"

#include <QPromise>
#include <QSemaphore>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <thread>

using namespace converge;

class tst_WorkspaceRunner final : public QObject
{
    Q_OBJECT

private slots:
    void deliveryLeavesTheFutureFinished()
    {
        // The promise outlives the hand-over, as a pool thread's task may: its destruction
        // after the result was delivered must find the state finished, not reset.
        QObject context;
        auto promise = std::make_unique<QPromise<QString>>();
        QFuture<QString> future = promise->future();
        promise->start();
        int delivered = 0;
        QString got;
        WorkspaceRunner::deliver(future, &context, [&](const QString &value) {
            ++delivered;
            got = value;
        });
        std::thread producer([&] {
            promise->addResult(QStringLiteral("stored"));
            promise->finish();
        });
        producer.join();
        QTRY_COMPARE(delivered, 1);
        QCOMPARE(got, QStringLiteral("stored"));
        promise.reset();
        QCoreApplication::processEvents(); // any second call-out would arrive now
        QVERIFY2(!future.isCanceled(),
                 "the delivered task was cancelled after the fact: its state had been reset");
        QVERIFY(future.isFinished());
        QCOMPARE(future.resultCount(), 1);
        QCOMPARE(delivered, 1);
    }

    void everyResultOnceAndInOrder()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        WorkspaceRunner runner(dir.filePath(QStringLiteral("w.converge")),
                               Workspace::OpenMode::OpenOrCreate);
        QObject context;
        constexpr int tasks = 2000;
        QList<int> seen;
        const Qt::HANDLE gui = QThread::currentThreadId();
        std::atomic<bool> offGui{true};
        for (int i = 0; i < tasks; ++i) {
            runner.run(
                [i, gui, &offGui](Workspace *ws, const StoreError &) {
                    if (QThread::currentThreadId() == gui || !ws)
                        offGui = false;
                    return QList<int>{i, i * 2};
                },
                &context, [&seen](const QList<int> &r) { seen.append(r.first()); });
        }
        QTRY_COMPARE_WITH_TIMEOUT(seen.size(), tasks, 30000);
        QCoreApplication::processEvents();
        QCOMPARE(seen.size(), tasks);
        for (int i = 0; i < tasks; ++i)
            QCOMPARE(seen.at(i), i);
        QVERIFY(offGui);
    }

    void noDeliveryOnceTheContextIsGone()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        WorkspaceRunner runner(dir.filePath(QStringLiteral("w.converge")),
                               Workspace::OpenMode::OpenOrCreate);
        QSemaphore release;
        int delivered = 0;
        {
            QObject context;
            runner.run(
                [&release](Workspace *, const StoreError &) {
                    release.acquire();
                    return 1;
                },
                &context, [&delivered](int) { ++delivered; });
        }
        release.release();
        QFuture<int> last = runner.run([](Workspace *, const StoreError &) { return 2; });
        QTRY_VERIFY(last.isFinished());
        QCoreApplication::processEvents();
        QCOMPARE(delivered, 0);
    }
};

QTEST_MAIN(tst_WorkspaceRunner)
#include "tst_workspacerunner.moc"
